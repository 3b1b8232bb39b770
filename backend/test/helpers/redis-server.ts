import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { freePort } from './free-port';

/** The path of Debian's redis-server, or undefined when it is not installed (`apt-get install redis-server`). */
export function redisServerBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
}

/** CI=1 or CI=true (any value but '', '0' and 'false'), as CI runners and .ci/run set it. */
function underCI(): boolean {
  const value = (process.env.CI ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}

/**
 * redis-server for a suite that needs it, or undefined when that suite is to be skipped. Locally a
 * missing binary skips the suite with a warning; under CI it throws (the suite fails to run), so a
 * green CI run never hides a Redis suite.
 */
export function redisServerForSuite(suite: string, skipped = 'skipped'): string | undefined {
  const binary = redisServerBinary();
  if (binary) return binary;
  if (underCI()) {
    throw new Error(
      `${suite}: redis-server is not installed, and under CI (CI=${process.env.CI}) this suite must run, not skip: apt-get install -y redis-server (.ci/run installs it)`,
    );
  }
  console.warn(
    `${suite}: redis-server is not installed, ${skipped} (apt-get install -y redis-server; CI installs it, and fails without it)`,
  );
  return undefined;
}

export interface RedisTestServer {
  url: string;
  port: number;
  /** Kills the server (SIGKILL: no goodbye to its clients). */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: nothing is persisted). */
  restart(): Promise<void>;
  /** Stops it for good (the same as kill). */
  close(): Promise<void>;
}

/** A real redis-server on a free loopback port, without persistence. Throws when redis-server is not installed. */
export async function startRedisServer(binary = redisServerBinary()): Promise<RedisTestServer> {
  if (!binary) throw new Error('redis-server is not installed (apt-get install -y redis-server)');
  const executable = binary;
  const port = await freePort();
  let child: ChildProcess | undefined;

  const start = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn(
        executable,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = proc;
      let output = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
      proc.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });

  const kill = () =>
    new Promise<void>((resolve) => {
      const proc = child;
      child = undefined;
      if (!proc || proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGKILL');
    });

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, restart: start, close: kill };
}
