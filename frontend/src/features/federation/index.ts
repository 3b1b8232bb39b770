/** The social web's parts of the pages (docs/federation.md). */
export { FederationTexts } from './texts';
