// Node module-resolution hook for the oracle: the published package's ESM files import each
// other without file extensions ("./reducer"), which Node's ESM resolver refuses. Retry such
// relative specifiers with ".js" and "/index.js".
export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (e) {
    if (e?.code !== 'ERR_MODULE_NOT_FOUND' && e?.code !== 'ERR_UNSUPPORTED_DIR_IMPORT') throw e;
    if (!specifier.startsWith('.')) throw e;
    for (const suffix of ['.js', '/index.js']) {
      try {
        return await nextResolve(specifier + suffix, context);
      } catch { /* try the next form */ }
    }
    throw e;
  }
}
