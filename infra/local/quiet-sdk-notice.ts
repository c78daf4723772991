/**
 * The SDK's notice that its releases after January 2027 need Node 22 says nothing about the pinned release
 * this runs (the README says which Node runs what), and would be the first lines of every local start and
 * benchmark. Imported first by each of those entry points.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
