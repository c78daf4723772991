import type { Member } from './workspace.ts';

/** A member as people read them: their name, or their e-mail address when they gave none. */
export const memberName = (member: Pick<Member, 'firstName' | 'lastName' | 'email'>): string =>
  `${member.firstName} ${member.lastName}`.trim() || member.email;
