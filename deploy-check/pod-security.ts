import type { Container, PodSpec } from './manifests';

/** The volume types the "restricted" Pod Security Standard allows. */
const RESTRICTED_VOLUME_TYPES = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);

const ALLOWED_SECCOMP = new Set(['RuntimeDefault', 'Localhost']);

interface SecurityContext {
  privileged?: boolean;
  allowPrivilegeEscalation?: boolean;
  runAsNonRoot?: boolean;
  runAsUser?: number;
  procMount?: string;
  seccompProfile?: { type?: string };
  capabilities?: { add?: string[]; drop?: string[] };
  windowsOptions?: { hostProcess?: boolean };
}

type PodSecurity = PodSpec & {
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
  ephemeralContainers?: Container[];
};

/**
 * Why the API server of a namespace labelled `pod-security.kubernetes.io/enforce: restricted` would
 * refuse this pod: the checks of the Pod Security Standards' "restricted" profile (which includes
 * "baseline"), as listed in the Kubernetes documentation for the `latest` version. Empty when it
 * is admitted. AppArmor, SELinux and sysctls are not used by these manifests, so any setting of
 * them is reported too.
 */
export function restrictedProfileViolations(pod: PodSecurity): string[] {
  const violations: string[] = [];
  const podContext = (pod.securityContext ?? {}) as SecurityContext & {
    seLinuxOptions?: unknown;
    sysctls?: unknown;
    appArmorProfile?: unknown;
  };
  for (const field of ['hostNetwork', 'hostPID', 'hostIPC'] as const) {
    if (pod[field]) {
      violations.push(`pod: ${field}`);
    }
  }
  for (const field of ['seLinuxOptions', 'sysctls', 'appArmorProfile'] as const) {
    if (podContext[field] !== undefined) {
      violations.push(`pod: securityContext.${field} is not checked here, leave it out`);
    }
  }
  if (podContext.windowsOptions?.hostProcess) {
    violations.push('pod: hostProcess');
  }
  for (const volume of pod.volumes ?? []) {
    const types = Object.keys(volume).filter((key) => key !== 'name');
    if (!types.every((type) => RESTRICTED_VOLUME_TYPES.has(type))) {
      violations.push(`volume ${volume.name}: type ${types.join(', ')} is not allowed`);
    }
  }
  if (podContext.runAsUser === 0) {
    violations.push('pod: runAsUser 0');
  }
  const containers = [...(pod.initContainers ?? []), ...pod.containers, ...(pod.ephemeralContainers ?? [])];
  for (const container of containers) {
    const context = (container.securityContext ?? {}) as SecurityContext & Record<string, unknown>;
    const where = `container ${container.name}`;
    if (context.privileged) {
      violations.push(`${where}: privileged`);
    }
    if (context.allowPrivilegeEscalation !== false) {
      violations.push(`${where}: allowPrivilegeEscalation must be false`);
    }
    if (!(context.runAsNonRoot ?? podContext.runAsNonRoot)) {
      violations.push(`${where}: runAsNonRoot must be true (pod or container)`);
    }
    if (context.runAsUser === 0) {
      violations.push(`${where}: runAsUser 0`);
    }
    const seccomp = context.seccompProfile?.type ?? podContext.seccompProfile?.type;
    if (!seccomp || !ALLOWED_SECCOMP.has(seccomp)) {
      violations.push(`${where}: seccompProfile must be RuntimeDefault or Localhost (pod or container)`);
    }
    if (!(context.capabilities?.drop ?? []).includes('ALL')) {
      violations.push(`${where}: capabilities must drop ALL`);
    }
    const added = (context.capabilities?.add ?? []).filter((capability) => capability !== 'NET_BIND_SERVICE');
    if (added.length > 0) {
      violations.push(`${where}: capabilities add ${added.join(', ')}`);
    }
    if (context.procMount !== undefined && context.procMount !== 'Default') {
      violations.push(`${where}: procMount ${context.procMount}`);
    }
    if (context.windowsOptions?.hostProcess) {
      violations.push(`${where}: hostProcess`);
    }
    for (const field of ['seLinuxOptions', 'appArmorProfile']) {
      if (context[field] !== undefined) {
        violations.push(`${where}: securityContext.${field} is not checked here, leave it out`);
      }
    }
    const hostPorts = (container.ports ?? []).filter((port) => (port as { hostPort?: number }).hostPort);
    if (hostPorts.length > 0) {
      violations.push(`${where}: hostPort`);
    }
  }
  return violations;
}
