// reader's public surface for other features (the home page greets a signed-in reader).
export { default as ReaderWelcome } from './ReaderWelcome.astro';
// The reader dashboard page, one at two addresses (/dashboard, /user-dashboard).
export { default as ReaderDashboardPage } from './ReaderDashboardPage.astro';
export { readerApi, readerDashboardPage } from './reader';
