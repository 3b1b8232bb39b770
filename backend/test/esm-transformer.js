/**
 * Jest (on Node 20) cannot require() ES modules, and Nest 12, nodemailer and smtp-server ship
 * only ESM. The app itself runs them natively (Node >= 20.19 has require(esm)); for the tests,
 * this transformer lets SWC turn those packages into CommonJS. Their one ESM-only construct,
 * `createRequire(import.meta.url)`, is rewritten to the module's own CommonJS `require`.
 */
const { createHash } = require('node:crypto');
const swcJest = require('@swc/jest');

const VERSION = 'esm-transformer-1';

function adapt(source, filename) {
  if (!filename.includes('node_modules')) return source;
  return source
    .replace(/\bconst require\s*=\s*createRequire\(import\.meta\.url\);?/g, '')
    .replace(/createRequire\(import\.meta\.url\)/g, 'require')
    .replace(/\bimport\.meta\.url\b/g, 'require("node:url").pathToFileURL(__filename).href');
}

module.exports = {
  createTransformer(options) {
    const swc = swcJest.createTransformer(options);
    return {
      canInstrument: swc.canInstrument,
      process(source, filename, transformOptions) {
        return swc.process(adapt(source, filename), filename, transformOptions);
      },
      processAsync(source, filename, transformOptions) {
        return swc.processAsync(adapt(source, filename), filename, transformOptions);
      },
      getCacheKey(source, filename, transformOptions) {
        const base = swc.getCacheKey(source, filename, transformOptions);
        return createHash('sha1').update(base).update(VERSION).digest('hex');
      },
    };
  },
};
