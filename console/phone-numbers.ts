import { get } from './api.ts';
import type { Integration } from './model.ts';
import { useLoad } from './ui.tsx';

/** Of a member's connections, the number they connected for SMS alerts, else for the messaging app. */
const numberOf = (integrations: Integration[]): string | undefined =>
  ['sms', 'messaging-app']
    .map((type) => integrations.find((one) => one.integrationType === type && one.status === 'ACTIVE'))
    .find((one) => one?.phoneNumber)?.phoneNumber;

/**
 * The numbers to call the given members on (`GET /integrations/:userId`, which every member may read): the one
 * each connected for SMS alerts, else for the messaging app; none for a member who connected neither.
 */
export const usePhoneNumbers = (userIds: readonly string[]): ReadonlyMap<string, string> => {
  const unique = [...new Set(userIds)].sort();
  const loaded = useLoad(async () => {
    const numbers = await Promise.all(
      unique.map(async (userId) => {
        const reply = await get<Integration[]>(`/integrations/${encodeURIComponent(userId)}`).catch(() => undefined);
        return [userId, reply && numberOf(reply.data)] as const;
      }),
    );
    return new Map(numbers.filter((entry): entry is readonly [string, string] => !!entry[1]));
  }, unique.join(','));
  return loaded.value ?? new Map();
};
