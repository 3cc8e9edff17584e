import ipaddr from 'ipaddr.js';
import { matchesSelector, type LabelSelector, type Manifest } from './manifests';

interface PolicyPeer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface PolicyRule {
  ports?: { protocol?: string; port?: number | string }[];
  to?: PolicyPeer[];
  from?: PolicyPeer[];
}

export interface NetworkPolicySpec {
  podSelector: LabelSelector;
  policyTypes?: ('Ingress' | 'Egress')[];
  ingress?: PolicyRule[];
  egress?: PolicyRule[];
}

/** The other end of a connection: a pod (by its labels and namespace) or an address outside. */
export type Peer = { namespace: string; labels?: Record<string, string> } | { ip: string };

export interface Connection {
  peer: Peer;
  port: number;
  protocol?: 'TCP' | 'UDP';
}

export function specOf(policy: Manifest): NetworkPolicySpec {
  return policy.spec as NetworkPolicySpec;
}

/** The policies of `namespace` that select a pod with these labels. */
export function policiesSelecting(
  policies: Manifest[],
  namespace: string,
  labels: Record<string, string>,
): Manifest[] {
  return policies.filter(
    (policy) =>
      policy.kind === 'NetworkPolicy' &&
      policy.metadata.namespace === namespace &&
      matchesSelector(specOf(policy).podSelector, labels),
  );
}

export function inCidr(ip: string, cidr: string): boolean {
  const address = ipaddr.parse(ip);
  const range = ipaddr.parseCIDR(cidr);
  return address.kind() === range[0].kind() && address.match(range);
}

function peerMatches(peer: PolicyPeer, other: Peer, ownNamespace: string): boolean {
  if ('ip' in other) {
    return (
      peer.ipBlock !== undefined &&
      inCidr(other.ip, peer.ipBlock.cidr) &&
      !(peer.ipBlock.except ?? []).some((excepted) => inCidr(other.ip, excepted))
    );
  }
  if (peer.ipBlock) {
    // Pod traffic is matched by selectors: whether a pod's address lies in a block depends on the
    // cluster, so a block is never taken to admit a pod here.
    return false;
  }
  const namespaceLabels = { 'kubernetes.io/metadata.name': other.namespace };
  const namespaceMatches = peer.namespaceSelector
    ? matchesSelector(peer.namespaceSelector, namespaceLabels)
    : other.namespace === ownNamespace;
  const podMatches = peer.podSelector ? matchesSelector(peer.podSelector, other.labels ?? {}) : true;
  return namespaceMatches && podMatches;
}

function ruleAllows(
  rule: PolicyRule,
  peers: PolicyPeer[] | undefined,
  connection: Connection,
  namespace: string,
) {
  const protocol = connection.protocol ?? 'TCP';
  const portMatches =
    rule.ports === undefined ||
    rule.ports.length === 0 ||
    rule.ports.some(
      (port) =>
        (port.protocol ?? 'TCP') === protocol && (port.port === undefined || port.port === connection.port),
    );
  const peerMatchesAny =
    peers === undefined ||
    peers.length === 0 ||
    peers.some((peer) => peerMatches(peer, connection.peer, namespace));
  return portMatches && peerMatchesAny;
}

/**
 * Whether the policies let a pod (namespace, labels) open `connection` (direction egress) or accept
 * it (direction ingress), by the NetworkPolicy rules: not isolated in that direction when no policy
 * selecting the pod names it; otherwise allowed when any such policy's rule allows it.
 */
export function allows(
  policies: Manifest[],
  pod: { namespace: string; labels: Record<string, string> },
  direction: 'Ingress' | 'Egress',
  connection: Connection,
): boolean {
  const isolating = policiesSelecting(policies, pod.namespace, pod.labels).filter((policy) => {
    const spec = specOf(policy);
    const types = spec.policyTypes ?? (spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
    return types.includes(direction);
  });
  if (isolating.length === 0) {
    return true;
  }
  return isolating.some((policy) => {
    const spec = specOf(policy);
    const rules = (direction === 'Ingress' ? spec.ingress : spec.egress) ?? [];
    return rules.some((rule) =>
      ruleAllows(rule, direction === 'Ingress' ? rule.from : rule.to, connection, pod.namespace),
    );
  });
}
