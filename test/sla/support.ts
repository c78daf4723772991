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

/** An SLA policy of every HIGH incident: one opened in the workspace is governed by it, and has deadlines. */
export const HIGH_INCIDENT_POLICY = {
  name: 'High, any team',
  priority: 'HIGH',
  responseTimeMinutes: 15,
  responseThreshold: 95,
  resolveTimeMinutes: 240,
  resolveThreshold: 90,
  escalationContact: 'tier-2',
  applicableTeam: '*',
  uptimeTarget: 99.9,
};
