import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import type { Manifest } from './manifests';

/**
 * kubernetes-models validates an object against the JSON schema of its apiVersion and kind,
 * generated from the Kubernetes API's OpenAPI document (required fields, types, enums, int-or-string).
 * Like the API's own schema it does not reject unknown fields: the assertions in manifests.spec.ts
 * name every field this project relies on, so a misspelt one fails there.
 */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'batch/v1/Job': Job,
  'networking.k8s.io/v1/Ingress': Ingress,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Namespace': Namespace,
  'v1/Service': Service,
};

/** Why the Kubernetes API would refuse the manifest's shape; undefined when it is valid. */
export function validationErrorOf(manifest: Manifest): string | undefined {
  const Model = MODELS[`${manifest.apiVersion}/${manifest.kind}`];
  if (!Model) {
    return `${manifest.apiVersion} ${manifest.kind}: no schema known to this check (add its model)`;
  }
  try {
    new Model(manifest as never).validate();
    return undefined;
  } catch (error) {
    return `${manifest.kind}/${manifest.metadata.name}: ${(error as Error).message}`;
  }
}
