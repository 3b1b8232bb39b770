// reader's public surface for other features (the home page greets a signed-in reader).
export { default as ReaderWelcome } from './ReaderWelcome.astro';
