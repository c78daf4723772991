export const SSO_PROTOCOLS = ['SAML', 'OIDC'] as const;
type SsoProtocol = (typeof SSO_PROTOCOLS)[number];

/** A workspace's single sign-on: the identity provider its people sign in with, by e-mail domain. */
export interface SsoSettings {
  workspaceId: string;
  enabled: boolean;
  protocol: SsoProtocol;
  /** Where a client sends the person to sign in: the IdP's SSO URL (SAML) or issuer URL (OIDC). */
  loginUrl: string;
  /** E-mail domains whose people this workspace's IdP signs in, lower case. */
  domains: string[];
  updatedAt: string;
}

/** The domain of an address, lower case; undefined for something that is not an address. */
export const emailDomain = (email: string): string | undefined => {
  const at = email.lastIndexOf('@');
  const domain =
    at > 0
      ? email
          .slice(at + 1)
          .trim()
          .toLowerCase()
      : '';
  return domain.includes('.') ? domain : undefined;
};
