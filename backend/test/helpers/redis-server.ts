import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** The path of Debian's redis-server, or undefined when it is not installed (`apt-get install redis-server`). */
export function redisServerBinary(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : undefined;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
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
      const proc = spawn(executable, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
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
