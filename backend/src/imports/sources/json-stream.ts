import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import Assembler from 'stream-json/Assembler';
import Parser from 'stream-json/Parser';
import { ownCopy } from './source-records';

/** Where a value sits in the document: object keys and array indexes from the top. */
export type JsonPath = readonly (string | number)[];

/** What one pass over a JSON document hands over, in document order. */
export type JsonEvent =
  /** One element of a collected array, whole (the only place a record is assembled). */
  | { type: 'item'; array: string; value: unknown }
  /** A chosen array closed: how many elements it held (collected or only counted). */
  | { type: 'end'; array: string; count: number }
  /** A chosen scalar (number, string, boolean or null); strings are own copies. */
  | { type: 'scalar'; key: string; value: unknown };

/** What a reader wants from a pass. Everything else is tokenised and dropped as it streams. */
export interface JsonPlan {
  /** The deepest path `arrayAt`/`scalarAt` care about (deeper values are never asked about). */
  depth: number;
  /** The name of a wanted array at `path`, or null. */
  arrayAt(path: JsonPath): string | null;
  /** Whether that array's elements are handed over whole (else only counted); `ended` names the wanted arrays already closed in this pass. */
  collect(array: string, ended: ReadonlySet<string>): boolean;
  /** The name of a wanted scalar at `path`, or null. */
  scalarAt?(path: JsonPath): string | null;
}

interface Frame {
  isArray: boolean;
  /** The current key (object) or index (array, -1 before the first element). */
  key: string | number | null;
  /** Set when this is a wanted array. */
  array: string | null;
  collect: boolean;
  count: number;
}

interface Token {
  name: string;
  value?: string;
}

/** The syntax error of a JSON document, and about where it is. */
export class JsonSyntaxError extends Error {}

/** Walks the tokens of one document, keeping only the frames of the path it is at and the element being assembled. */
class Walker {
  readonly events: JsonEvent[] = [];
  private readonly frames: Frame[] = [];
  private readonly ended = new Set<string>();
  private assembler: Assembler | null = null;
  private assembling = '';

  constructor(private readonly plan: JsonPlan) {}

  token(token: Token): void {
    if (this.assembler) {
      this.feed(token);
      return;
    }
    const top = this.frames[this.frames.length - 1];
    if (token.name === 'keyValue') {
      top.key = token.value!;
      return;
    }
    if (token.name === 'endObject' || token.name === 'endArray') {
      const frame = this.frames.pop()!;
      if (frame.array !== null) {
        this.ended.add(frame.array);
        this.events.push({ type: 'end', array: frame.array, count: frame.count });
      }
      return;
    }
    // A value begins.
    if (top?.isArray) top.key = (top.key as number) + 1;
    if (top?.array !== null && top !== undefined) {
      top.count += 1;
      if (top.collect) {
        this.assembler = new Assembler();
        this.assembling = top.array;
        this.feed(token);
        return;
      }
    }
    if (token.name === 'startObject') {
      this.frames.push({ isArray: false, key: null, array: null, collect: false, count: 0 });
    } else if (token.name === 'startArray') {
      const array = this.frames.length <= this.plan.depth ? this.plan.arrayAt(this.path()) : null;
      this.frames.push({ isArray: true, key: -1, array, collect: array !== null && this.plan.collect(array, this.ended), count: 0 });
    } else if (this.plan.scalarAt && this.frames.length <= this.plan.depth) {
      const key = this.plan.scalarAt(this.path());
      if (key !== null) this.events.push({ type: 'scalar', key, value: scalar(token) });
    }
  }

  private feed(token: Token): void {
    const assembler = this.assembler! as unknown as Record<string, (value?: string) => void> & Assembler;
    assembler[token.name](token.value);
    if (assembler.done) {
      this.events.push({ type: 'item', array: this.assembling, value: assembler.current });
      this.assembler = null;
    }
  }

  private path(): JsonPath {
    return this.frames.map((frame) => frame.key as string | number);
  }
}

function scalar(token: Token): unknown {
  switch (token.name) {
    case 'stringValue':
      return ownCopy(token.value!);
    case 'numberValue':
      return Number(token.value);
    case 'trueValue':
      return true;
    case 'falseValue':
      return false;
    default:
      return null;
  }
}

/**
 * One pass over a JSON document read from `source` (a file or zip entry stream of Buffers): yields
 * what `plan` asks for as it streams, a few at a time, so only the element being read is ever
 * whole in memory. Throws JsonSyntaxError (message naming about where) on a malformed or
 * truncated document, including trailing text after it.
 */
export async function* jsonEvents(source: Readable, plan: JsonPlan): AsyncGenerator<JsonEvent> {
  const parser = new Parser({ packValues: true, streamValues: false });
  const walker = new Walker(plan);
  // Tokens may arrive on a later tick, outside this generator: a failure there is kept and thrown here.
  let walkerError: unknown = null;
  parser.on('data', (token: Token) => {
    try {
      if (!walkerError) walker.token(token);
    } catch (error) {
      walkerError = error;
    }
  });
  let parserError: Error | null = null;
  parser.on('error', (error: Error) => {
    parserError ??= error;
  });
  let bytes = 0;
  // The parser's words ('Parser cannot parse input: expected ...', 'Parser has expected ...' when the text stops early), with about where.
  const syntaxError = (error: Error) => {
    const ended = /^Parser has /.test(error.message);
    const what = error.message.replace(/^Parser (cannot parse input: |has )/, '');
    return new JsonSyntaxError(ended ? `it ends before its JSON does: ${what}` : `${what} at or before byte ${bytes}`);
  };
  const write = (chunk: Buffer) =>
    // The callback runs once the chunk is tokenised (its tokens reach the walker then or on the next tick).
    new Promise<void>((resolve) =>
      parser.write(chunk, (error) => {
        if (error) parserError ??= error;
        resolve();
      }),
    );
  try {
    for await (const chunk of source) {
      bytes += (chunk as Buffer).length;
      await write(chunk as Buffer);
      if (walkerError) throw walkerError;
      if (parserError) throw syntaxError(parserError);
      while (walker.events.length) yield walker.events.shift()!;
    }
    parser.end();
    await finished(parser).catch((error: Error) => {
      parserError ??= error;
    });
    if (walkerError) throw walkerError;
    if (parserError) throw syntaxError(parserError);
    while (walker.events.length) yield walker.events.shift()!;
  } finally {
    source.destroy();
    parser.destroy();
  }
}
