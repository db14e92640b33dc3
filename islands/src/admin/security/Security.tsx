// 'Bezpieczeństwo': passkeys, the authenticator app and its recovery codes, the password, the
// active sessions and the audit log.
import type { ViewProps } from "../app/views";
import AuditLog from "./AuditLog";
import Passkeys from "./Passkeys";
import Password from "./Password";
import Sessions from "./Sessions";
import TwoFactor from "./TwoFactor";

export default function Security({ toast }: ViewProps) {
  return (
    <div className="security">
      <Passkeys toast={toast} />
      <TwoFactor toast={toast} />
      <Password toast={toast} />
      <Sessions toast={toast} />
      <AuditLog />
    </div>
  );
}
