/** A service API key as the usage plan sees it. */
export interface UsagePlanKey {
  /** Our key id; the mirror is named by it, so a mirror can be traced back to its key. */
  id: string;
  workspaceId: string;
  /**
   * The SHA-256 of the key's secret (64 hex characters), never the raw key: API Gateway stores key values
   * readably, and "only a hash of a key is stored" must hold there too. A gateway authorizer that
   * hashes the presented secret can hand API Gateway this value as the usage identifier.
   */
  value: string;
  enabled: boolean;
}

/**
 * The per-key throttle in front of the service: each API key is mirrored into it under its own id,
 * which our key record keeps (`usagePlanKeyId`). The mirror never decides whether a key is valid, our
 * record does; a mirror is created from the secret's hash, which exists at create and rotate.
 */
export interface UsagePlan {
  /** Adds a key to the plan and answers the mirror's id. */
  register(key: UsagePlanKey): Promise<string>;
  /**
   * Enables or disables a mirror. False if it does not exist (removed by hand, or a local store that
   * restarted): the hash is not kept outside our record's module, so the next rotation replaces it.
   */
  setEnabled(mirrorId: string, enabled: boolean): Promise<boolean>;
  /** Takes a mirror out of the plan and deletes it; one that does not exist is already removed. */
  remove(mirrorId: string): Promise<void>;
}

/**
 * The tag every gateway key the service creates carries, valued with its usage plan's id: IAM lets a function
 * change and delete only keys with its own plan's tag, so no other key of the account or region is within reach,
 * and the keys a stack leaves behind can be found by it (docs/deploying.md, "Tearing it down").
 */
export const USAGE_PLAN_TAG = 'incident-service-usage-plan';
