import { Body, Controller, Inject, Put } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorator';
import { CLOCK, Clock, ShiftableClock } from '../common/clock';
import { withMessage, WithMessage } from '../common/envelope';
import { RoleName } from '../users/roles';
import { TestClockDto, TestClockResponseDto } from './dto/schedule.dto';
import { ScheduledPublisher } from './scheduled-publisher';
import { SchedulingMessages } from './scheduling.messages';

/**
 * Tests only, mounted when TEST_CLOCK_CONTROL=1 (scripts/browser-tests.mjs sets it; never in
 * production, and not in openapi.json): sets this instance's clock to the system time plus
 * `offsetSeconds` (a PUT: the same body twice moves it once) and sweeps at once, so a browser
 * test sees a scheduled post published without waiting for its time.
 */
@ApiExcludeController()
@Controller('test')
export class TestClockController {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly publisher: ScheduledPublisher,
  ) {}

  @Put('clock')
  @Auth({ role: RoleName.ADMIN, forbidden: SchedulingMessages.FORBIDDEN_TEST_CLOCK })
  async moveClock(@Body() dto: TestClockDto): Promise<WithMessage<TestClockResponseDto>> {
    if (this.clock instanceof ShiftableClock) this.clock.offsetMs = dto.offsetSeconds * 1000;
    const published = await this.publisher.sweepNow();
    return withMessage(
      { now: this.clock.now().toISOString(), offsetSeconds: dto.offsetSeconds, published: published.length },
      SchedulingMessages.CLOCK_MOVED,
    );
  }
}
