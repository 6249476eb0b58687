// Loads the Function's `main(event, context)` from its handler file, CommonJS or ESM alike.
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

/**
 * Imports `handlerPath` and returns its `main`. Throws an Error whose message is one line saying why the
 * handler cannot serve: a missing file, a syntax error, a module it cannot resolve, an error thrown while
 * loading, or no `main` function.
 */
export async function loadHandler(handlerPath) {
  if (!fs.existsSync(handlerPath)) {
    throw new Error(`cannot load handler ${handlerPath}: no such file`);
  }
  let module;
  try {
    // import() resolves the handler's own dependencies from node_modules beside it or above it.
    module = await import(pathToFileURL(handlerPath).href);
  } catch (err) {
    throw new Error(`cannot load handler ${handlerPath}: ${describe(err)}`);
  }
  // A CommonJS module.exports arrives as the default export; Node lifts only the names it detects statically.
  const main = module.main ?? module.default?.main;
  if (typeof main !== 'function') {
    throw new Error(`cannot load handler ${handlerPath}: it does not export a function main(event, context)`);
  }
  return main;
}

function describe(err) {
  if (!(err instanceof Error)) {
    return `threw ${String(err)}`;
  }
  // Node's "Cannot find module" message goes on with the require stack on further lines.
  const text = `${err.name}: ${err.message.split('\n')[0]}`;
  // A syntax error in CommonJS code names its file and line on the first line of the stack, not in the message.
  const where = err instanceof SyntaxError ? /^(\S+:\d+)\n/.exec(err.stack ?? '') : null;
  return where ? `${text} (${where[1]})` : text;
}
