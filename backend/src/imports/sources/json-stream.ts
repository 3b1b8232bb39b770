import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import Assembler from 'stream-json/Assembler';
import Parser from 'stream-json/Parser';
import { ITEM_TEXT_MAX, ownCopy } from './source-records';

/** Where a value sits in the document: object keys and array indexes from the top. */
export type JsonPath = readonly (string | number)[];

/** What one pass over a JSON document hands over, in document order. */
export type JsonEvent =
  /** One element of a collected array, whole (the only place a record is assembled). */
  | { type: 'item'; array: string; value: unknown }
  /** A chosen array closed: how many elements it held (collected or only counted). */
  | { type: 'end'; array: string; count: number }
  /** A chosen scalar (number, string, boolean or null); strings are own copies. */
  | { type: 'scalar'; key: string; value: unknown }
  /** An element of a collected array over ITEM_TEXT_MAX, not kept: its top-level fields that name it (LABELS, own copies), for the report. */
  | { type: 'oversized'; array: string; labels: Readonly<Record<string, string>> };

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

/**
 * What one value or key costs against ITEM_TEXT_MAX besides its text: an element of a million tiny
 * values (`[[],[],…]`) would hold far more memory than its few characters, so it counts too.
 */
const VALUE_COST = 8;

/** The most text kept of a key, or of a field that names an oversized element (longer ones are dropped). */
const SMALL_TEXT_MAX = 64 * 1024;

/** The top-level fields that name an element in the exports read (ids, titles, names): kept of an oversized one for the report. */
const LABELS = new Set(['id', 'title', 'name', 'fullName', 'slug']);

/** The element of a collected array being read. */
interface Element {
  array: string;
  /** Assembles it whole; null once it passed ITEM_TEXT_MAX: the rest of it is only walked through. */
  assembler: Assembler | null;
  /** The containers open inside it (0 before it starts and once it ends). */
  depth: number;
  /** Its text so far (strings, keys and numbers), with VALUE_COST per value and key. */
  size: number;
  /** Its current top-level key. */
  key: string | null;
  labels: Record<string, string>;
}

type TextKind = 'key' | 'string' | 'number';

/**
 * Walks the tokens of one document, keeping only the frames of the path it is at and the element
 * being assembled. The parser streams every key, string and number in chunks and keeps none of
 * them whole: the walker keeps only what it needs (an element's text up to ITEM_TEXT_MAX, keys,
 * wanted scalars), so no value in the file, however long, is ever held whole past the cap.
 */
class Walker {
  readonly events: JsonEvent[] = [];
  private readonly frames: Frame[] = [];
  private readonly ended = new Set<string>();
  private element: Element | null = null;
  /** The chunks of the key, string or number being read while they are kept (null: not kept, or dropped). */
  private text: string[] | null = null;
  private textLength = 0;
  private textMax = 0;
  /** The wanted scalar being read outside any element. */
  private scalarKey: string | null = null;

  constructor(private readonly plan: JsonPlan) {}

  token(token: Token): void {
    const { name } = token;
    if (name === 'stringChunk' || name === 'numberChunk') return this.chunk(token.value!);
    if (name === 'endKey' || name === 'endString' || name === 'endNumber')
      return this.endText(name === 'endKey' ? 'key' : name === 'endString' ? 'string' : 'number');
    if (!this.element) {
      if (name === 'startKey') return this.startText(true, SMALL_TEXT_MAX);
      if (name === 'endObject' || name === 'endArray') return this.close();
      this.valueBegins(name);
      if (!this.element) return;
    }
    this.elementToken(name);
  }

  /** A value begins outside any element: it may be one (of a collected array), a container, or a scalar. */
  private valueBegins(name: string): void {
    const top = this.frames[this.frames.length - 1];
    if (top?.isArray) top.key = (top.key as number) + 1;
    if (top?.array !== null && top !== undefined) {
      top.count += 1;
      if (top.collect) {
        this.element = { array: top.array, assembler: new Assembler(), depth: 0, size: 0, key: null, labels: {} };
        return;
      }
    }
    if (name === 'startObject') {
      this.frames.push({ isArray: false, key: null, array: null, collect: false, count: 0 });
    } else if (name === 'startArray') {
      const array = this.frames.length <= this.plan.depth ? this.plan.arrayAt(this.path()) : null;
      this.frames.push({ isArray: true, key: -1, array, collect: array !== null && this.plan.collect(array, this.ended), count: 0 });
    } else {
      const key = this.plan.scalarAt && this.frames.length <= this.plan.depth ? this.plan.scalarAt(this.path()) : null;
      if (name === 'startString' || name === 'startNumber') {
        this.scalarKey = key;
        this.startText(key !== null, ITEM_TEXT_MAX);
      } else if (key !== null) {
        this.events.push({ type: 'scalar', key, value: name === 'trueValue' ? true : name === 'falseValue' ? false : null });
      }
    }
  }

  /** A container closes outside any element. */
  private close(): void {
    const frame = this.frames.pop()!;
    if (frame.array !== null) {
      this.ended.add(frame.array);
      this.events.push({ type: 'end', array: frame.array, count: frame.count });
    }
  }

  /** A token of the element being read other than a chunk or the end of a key, string or number. */
  private elementToken(name: string): void {
    const element = this.element!;
    switch (name) {
      case 'startKey':
        this.cost(VALUE_COST);
        // Skipped: only its own keys are read, to find the fields that name it.
        return element.assembler ? this.startText(true, Infinity) : this.startText(element.depth === 1, SMALL_TEXT_MAX);
      case 'startString':
      case 'startNumber':
        this.cost(VALUE_COST);
        return element.assembler
          ? this.startText(true, Infinity)
          : this.startText(element.depth === 1 && element.key !== null && LABELS.has(element.key), SMALL_TEXT_MAX);
      case 'startObject':
      case 'startArray':
        this.cost(VALUE_COST);
        element.depth += 1;
        this.feed(name);
        return;
      case 'endObject':
      case 'endArray':
        element.depth -= 1;
        this.feed(name);
        if (element.depth === 0) this.finish();
        return;
      default:
        // nullValue, trueValue, falseValue
        this.cost(VALUE_COST);
        this.feed(name);
        if (element.depth === 0) this.finish();
    }
  }

  /** Hands a token, its text packed, to the element's assembler while it is assembled. */
  private feed(name: string, value?: string): void {
    const assembler = this.element!.assembler as unknown as Record<string, (value?: string) => void> | null;
    assembler?.[name](value);
  }

  private startText(keep: boolean, max: number): void {
    this.text = keep ? [] : null;
    this.textLength = 0;
    this.textMax = max;
  }

  private chunk(value: string): void {
    if (this.element?.assembler) this.cost(value.length);
    if (!this.text) return;
    this.textLength += value.length;
    if (this.textLength > this.textMax) this.text = null;
    else this.text.push(value);
  }

  private endText(kind: TextKind): void {
    const text = this.text ? this.text.join('') : null;
    this.text = null;
    const element = this.element;
    if (!element) {
      if (kind === 'key') this.frames[this.frames.length - 1].key = text;
      else if (this.scalarKey !== null)
        this.events.push({
          type: 'scalar',
          key: this.scalarKey,
          value: text === null ? null : kind === 'number' ? Number(text) : ownCopy(text),
        });
      this.scalarKey = null;
      return;
    }
    if (kind === 'key') {
      if (element.depth === 1) element.key = text;
      this.feed('keyValue', text!);
      return;
    }
    if (element.depth === 1 && text !== null && element.key !== null && LABELS.has(element.key) && text.length <= SMALL_TEXT_MAX)
      element.labels[element.key] = text;
    this.feed(kind === 'string' ? 'stringValue' : 'numberValue', text!);
    if (element.depth === 0) this.finish();
  }

  /** Counts `size` against the cap; past it, drops what the element held (its assembler and the text being read). */
  private cost(size: number): void {
    const element = this.element!;
    if (!element.assembler) return;
    element.size += size;
    if (element.size <= ITEM_TEXT_MAX) return;
    element.assembler = null;
    this.text = null;
  }

  private finish(): void {
    const element = this.element!;
    this.element = null;
    if (element.assembler) this.events.push({ type: 'item', array: element.array, value: element.assembler.current });
    else
      this.events.push({
        type: 'oversized',
        array: element.array,
        labels: Object.fromEntries(Object.entries(element.labels).map(([key, value]) => [key, ownCopy(value)])),
      });
  }

  private path(): JsonPath {
    return this.frames.map((frame) => frame.key as string | number);
  }
}

/**
 * One pass over a JSON document read from `source` (a file or zip entry stream of Buffers): yields
 * what `plan` asks for as it streams, a few at a time, so only the element being read is ever
 * whole in memory, and none over ITEM_TEXT_MAX (handed over as `oversized`). Throws JsonSyntaxError (message naming about where) on a malformed or
 * truncated document, including trailing text after it.
 */
export async function* jsonEvents(source: Readable, plan: JsonPlan): AsyncGenerator<JsonEvent> {
  // Every key, string and number in chunks, none packed: the parser holds no value whole (the walker keeps what it needs, within the cap).
  const parser = new Parser({ packValues: false, streamValues: true });
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
