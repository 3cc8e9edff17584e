// kubernetes-models and @kubernetes-models/* export their modules under the "import" condition
// only, which Jest's CommonJS resolver does not try; resolve them with it (swc then transforms them).
const ESM_ONLY = /^(kubernetes-models|@kubernetes-models\/)/;

/** @type {import('jest-resolve').SyncResolver} */
module.exports = (request, options) =>
  options.defaultResolver(
    request,
    ESM_ONLY.test(request) ? { ...options, conditions: [...(options.conditions ?? []), 'import'] } : options,
  );
