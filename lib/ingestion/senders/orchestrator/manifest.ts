import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';

/** The exporter release the manifest deploys; pinned, so every download deploys the same thing. */
export const EVENT_EXPORTER_IMAGE = 'ghcr.io/resmoio/kubernetes-event-exporter:v1.7';

/** What the operator replaces when the manifest was fetched without `?apiKey=`. */
export const API_KEY_PLACEHOLDER = 'REPLACE_WITH_AN_INGESTION_API_KEY';

export const manifestQuery = z.object({
  apiKey: z
    .optional(z.string().check(z.trim(), z.minLength(1)))
    .check(z.describe('the ingestion key, which then also goes into the manifest Secret instead of a placeholder')),
});

const NAME = 'incident-service-event-exporter';
const NAMESPACE = 'incident-service-agent';

/** API Gateway's own host (`<api>.execute-api.<region>.amazonaws.com`), where the stage is the first path segment. */
const EXECUTE_API_HOST = /\.execute-api\.[a-z0-9-]+\.amazonaws\.com(\.cn)?(:\d+)?$/i;

const firstValue = (header: string | undefined): string | undefined => header?.split(',')[0]?.trim() || undefined;

/**
 * The service's public base URL as the caller reached it, so a manifest fetched from any deployment posts back
 * to that deployment. On API Gateway's own host the stage is in the URL but not in `event.path`, so the path is
 * `requestContext.path`; on a custom domain `event.path` keeps the base-path mapping, and locally it is the path
 * itself. `ownPath` (the route's path) is cut from the end to leave the base.
 */
export const publicBaseUrl = (
  event: APIGatewayProxyEvent,
  headers: Record<string, string>,
  ownPath: string,
): string => {
  const host = firstValue(headers.host) ?? event.requestContext.domainName ?? 'localhost';
  const protocol = firstValue(headers['x-forwarded-proto']) ?? 'http';
  const requestPath = EXECUTE_API_HOST.test(host) ? event.requestContext.path : event.path;
  const base = requestPath.endsWith(ownPath) ? requestPath.slice(0, -ownPath.length) : '';
  return `${protocol}://${host}${base.replace(/\/+$/, '')}`;
};

/** A YAML double-quoted scalar; JSON's string escapes are all valid there. */
const quoted = (value: string): string => JSON.stringify(value);

const indent = (text: string, spaces: number): string =>
  text
    .split('\n')
    .map((line) => (line ? `${' '.repeat(spaces)}${line}` : line))
    .join('\n');

/**
 * The exporter's own configuration. The exporter expands `${VAR}` in it from its environment, so the key comes
 * from the Secret and never sits in the ConfigMap. Without a layout the webhook receiver posts each Event object
 * as it is, which is what the orchestrator route reads. Normal events (scheduling, pulls, scaling) are dropped:
 * they are routine, and forwarding them all would spend the API key's rate limit on records.
 */
const exporterConfig = (ingestionUrl: string): string => `logLevel: warn
logFormat: json
maxEventAgeSeconds: 60
route:
  routes:
    - drop:
        - type: "Normal"
      match:
        - receiver: incident-service
receivers:
  - name: incident-service
    webhook:
      endpoint: ${quoted(ingestionUrl)}
      headers:
        X-API-Key: "\${INCIDENT_SERVICE_API_KEY}"
        User-Agent: kubernetes-event-exporter
`;

/**
 * A manifest `kubectl apply -f <url>` deploys as it is: resmoio/kubernetes-event-exporter in its own namespace,
 * allowed to read Events cluster-wide and nothing else, posting Warning events to the orchestrator route with the
 * API key from a Secret. The key is the one the manifest was fetched with (`?apiKey=`), or a placeholder to fill.
 */
export const orchestratorManifest = ({ ingestionUrl, apiKey }: { ingestionUrl: string; apiKey?: string }): string => {
  const labels = `app.kubernetes.io/name: ${NAME}\n    app.kubernetes.io/part-of: incident-service`;
  return `# Forwards Kubernetes Warning events to ${ingestionUrl}
# Apply: kubectl apply -f <this manifest's URL>${apiKey ? '' : `\n# Before applying, replace ${API_KEY_PLACEHOLDER} below with an API key that has the ingestion:write scope.`}
apiVersion: v1
kind: Namespace
metadata:
  name: ${NAMESPACE}
  labels:
    ${labels}
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: ${NAME}
  namespace: ${NAMESPACE}
  labels:
    ${labels}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: ${NAME}
  labels:
    ${labels}
rules:
  - apiGroups: ["", "events.k8s.io"]
    resources: ["events"]
    verbs: ["get", "watch", "list"]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: ${NAME}
  labels:
    ${labels}
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: ${NAME}
subjects:
  - kind: ServiceAccount
    name: ${NAME}
    namespace: ${NAMESPACE}
---
apiVersion: v1
kind: Secret
metadata:
  name: ${NAME}
  namespace: ${NAMESPACE}
  labels:
    ${labels}
type: Opaque
stringData:
  api-key: ${quoted(apiKey ?? API_KEY_PLACEHOLDER)}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ${NAME}
  namespace: ${NAMESPACE}
  labels:
    ${labels}
data:
  config.yaml: |
${indent(exporterConfig(ingestionUrl), 4)}---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${NAME}
  namespace: ${NAMESPACE}
  labels:
    ${labels}
spec:
  replicas: 1
  strategy:
    type: Recreate
  selector:
    matchLabels:
      app.kubernetes.io/name: ${NAME}
  template:
    metadata:
      labels:
        ${labels.replace('\n    ', '\n        ')}
    spec:
      serviceAccountName: ${NAME}
      securityContext:
        runAsNonRoot: true
        runAsUser: 65532
        runAsGroup: 65532
      containers:
        - name: event-exporter
          image: ${EVENT_EXPORTER_IMAGE}
          imagePullPolicy: IfNotPresent
          command: ["/kubernetes-event-exporter"]
          args: ["-conf=/data/config.yaml"]
          env:
            - name: INCIDENT_SERVICE_API_KEY
              valueFrom:
                secretKeyRef:
                  name: ${NAME}
                  key: api-key
          resources:
            requests:
              cpu: 10m
              memory: 32Mi
            limits:
              memory: 128Mi
          securityContext:
            allowPrivilegeEscalation: false
            readOnlyRootFilesystem: true
            capabilities:
              drop: ["ALL"]
          volumeMounts:
            - name: config
              mountPath: /data
              readOnly: true
      volumes:
        - name: config
          configMap:
            name: ${NAME}
`;
};
