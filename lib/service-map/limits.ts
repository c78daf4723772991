/** The most hops a walk may be asked for: the spec's blast-radius depth range, 1 to 10. */
export const DEPENDENCY_DEPTH_LIMIT = 10;
