/** A policy of HIGH incidents of the payments team: response within 10 minutes, resolution within an hour. */
export const HIGH_PAYMENTS_POLICY = {
  name: 'High, payments',
  priority: 'HIGH',
  responseTimeMinutes: 10,
  responseThreshold: 90,
  resolveTimeMinutes: 60,
  resolveThreshold: 80,
  escalationContact: 'tier-2',
  applicableTeam: 'payments',
  uptimeTarget: 99.9,
};
