import type { Container, PodSpec } from './manifests';

interface SecurityContext {
  runAsUser?: number;
  runAsGroup?: number;
  fsGroup?: number;
  supplementalGroups?: number[];
}

interface SecretVolume {
  secretName: string;
  defaultMode?: number;
  items?: { key: string; path: string; mode?: number }[];
}

/** One file of a mounted Secret, as the kubelet writes it, and whether the container's user can read it. */
export interface SecretFile {
  container: string;
  volume: string;
  /** The item's path, or `*` for every key of the Secret. */
  file: string;
  mode: number;
  owner: { uid: number; gid: number };
  user: { uid?: number; groups: number[] };
  readable: boolean;
}

/** The API's default for a secret volume's files (0644). */
const DEFAULT_MODE = 0o644;

/**
 * Every secret file each container mounts, and whether its process may read it. The kubelet writes
 * a secret volume's files owned by root, with the item's `mode` or the volume's `defaultMode`; with a
 * pod `fsGroup`, their group is that group (otherwise root's, 0). The process runs as `runAsUser`
 * (container, else pod) with `runAsGroup` as its group and `fsGroup` and `supplementalGroups` as
 * supplementary groups. Read access then follows the file's mode: the owner's bits for root, the
 * group's for a member of its group, the others' for anyone. (With `fsGroup` some kubelets also add
 * group read; that is not relied on here: the mode must say so itself.) A user or group left to the
 * image is unknown here, so it grants nothing.
 */
export function secretFilesOf(pod: PodSpec): SecretFile[] {
  const podContext = (pod.securityContext ?? {}) as SecurityContext;
  const containers: Container[] = [...(pod.initContainers ?? []), ...pod.containers];
  return containers.flatMap((container) => {
    const context = (container.securityContext ?? {}) as SecurityContext;
    const uid = context.runAsUser ?? podContext.runAsUser;
    const primaryGroup = context.runAsGroup ?? podContext.runAsGroup;
    const groups = [
      ...(primaryGroup === undefined ? [] : [primaryGroup]),
      ...(podContext.fsGroup === undefined ? [] : [podContext.fsGroup]),
      ...(podContext.supplementalGroups ?? []),
    ];
    return (container.volumeMounts ?? []).flatMap((mount) => {
      const volume = (pod.volumes ?? []).find((candidate) => candidate.name === mount.name);
      const secret = volume?.secret as SecretVolume | undefined;
      if (!secret) {
        return [];
      }
      const owner = { uid: 0, gid: podContext.fsGroup ?? 0 };
      const files = secret.items ?? [{ key: '*', path: '*', mode: undefined }];
      return files.map((item) => {
        const mode = item.mode ?? secret.defaultMode ?? DEFAULT_MODE;
        const readable =
          uid === 0 ||
          (uid === owner.uid && (mode & 0o400) !== 0) ||
          (groups.includes(owner.gid) && (mode & 0o040) !== 0) ||
          (mode & 0o004) !== 0;
        return {
          container: container.name,
          volume: mount.name,
          file: item.path,
          mode,
          owner,
          user: { uid, groups },
          readable,
        };
      });
    });
  });
}
