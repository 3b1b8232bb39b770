import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver: an S3-compatible server (the S3 REST API over HTTP, objects on disk), from the npm registry.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** The app's STORAGE=s3 settings for this server (add S3_PUBLIC_URL to link images at the bucket). */
  env: Record<string, string>;
  /** The bucket's public URL (path style): objects are readable anonymously there. */
  publicUrl: string;
  client: S3Client;
  /** Every object key in the bucket, sorted. */
  keys(prefix?: string): Promise<string[]>;
  object(key: string): Promise<{ body: Buffer; contentType?: string; cacheControl?: string }>;
  close(): Promise<void>;
}

const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

/** Starts an S3-compatible server on a free port with an empty bucket. */
export async function startS3Server(bucket = 'inkwell-test'): Promise<S3TestServer> {
  const directory = mkdtempSync(join(tmpdir(), 'inkwell-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    bucket,
    publicUrl: `${endpoint}/${bucket}`,
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: ACCESS_KEY,
      S3_SECRET_ACCESS_KEY: SECRET_KEY,
      S3_FORCE_PATH_STYLE: 'true',
    },
    client,
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
        for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    async object(key) {
      const out = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return { body: Buffer.from(await out.Body!.transformToByteArray()), contentType: out.ContentType, cacheControl: out.CacheControl };
    },
    async close() {
      client.destroy();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
