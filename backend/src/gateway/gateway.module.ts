import { Global, Module } from '@nestjs/common';
import { PageGatewayService } from './page-gateway.service';

/** The pages' in-process door to the API's controllers (see PageGatewayService). */
@Global()
@Module({
  providers: [PageGatewayService],
  exports: [PageGatewayService],
})
export class GatewayModule {}
