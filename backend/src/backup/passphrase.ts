/**
 * The passphrase of a backup: BACKUP_PASSPHRASE, or typed at a terminal (not echoed; twice when
 * sealing a new backup). Without either the command stops: a backup's secrets are never written unsealed.
 */
export async function askPassphrase(fromEnv: string | undefined, confirm: boolean): Promise<string> {
  if (fromEnv) return fromEnv;
  if (!process.stdin.isTTY) throw new Error('set BACKUP_PASSPHRASE (at least 8 characters), or run this at a terminal to type it');
  const first = await readHidden('Backup passphrase: ');
  if (first.length < 8) throw new Error('the passphrase must be at least 8 characters');
  if (confirm && (await readHidden('Again: ')) !== first) throw new Error('the two passphrases differ');
  return first;
}

function readHidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stdout.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let typed = '';
    const onData = (data: Buffer) => {
      for (const char of data.toString('utf8')) {
        if (char === '\r' || char === '\n') {
          done();
          process.stdout.write('\n');
          return resolve(typed);
        }
        if (char === '\u0003') {
          done();
          return reject(new Error('cancelled'));
        }
        if (char === '\u007f') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
    };
    stdin.on('data', onData);
  });
}
