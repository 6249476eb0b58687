// The resolve hook module.register() loads on Node.js before 22.15 (see packages.mjs): a bare package name the
// handler's folders do not have is resolved from the runtime's folder instead.
import { isBare } from './packages.mjs';

let parentURL;

export function initialize(data) {
  parentURL = data.parentURL;
}

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !isBare(specifier)) throw err;
    try {
      return await nextResolve(specifier, { ...context, parentURL });
    } catch {
      throw err; // the handler's own error: "Cannot find package 'x' imported from <handler>"
    }
  }
}
