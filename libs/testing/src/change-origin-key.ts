/** The CHANGE_ORIGIN_KEY main-api and integrations share in tests (32 bytes, base64). */
export const TEST_CHANGE_ORIGIN_KEY = Buffer.alloc(32, 7).toString('base64');
