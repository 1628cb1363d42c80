package io.lahar.core.job.plugins;

/**
 * A kind of Kubernetes object a job plugin creates and deletes besides the pods, as its
 * {@link JobPluginType} declares it: what the bridge needs to name the object.
 */
public record ObjectKind(String apiVersion, String kind) {

    public static final ObjectKind SERVICE = new ObjectKind("v1", "Service");
    public static final ObjectKind CONFIG_MAP = new ObjectKind("v1", "ConfigMap");
    public static final ObjectKind SECRET = new ObjectKind("v1", "Secret");
    public static final ObjectKind NETWORK_POLICY = new ObjectKind("networking.k8s.io/v1", "NetworkPolicy");
    /** Not a plugin's: the claims the controller makes for a job's inline volumes. */
    public static final ObjectKind PERSISTENT_VOLUME_CLAIM = new ObjectKind("v1", "PersistentVolumeClaim");

    public ObjectKind {
        if (apiVersion == null || apiVersion.isEmpty() || kind == null || kind.isEmpty()) {
            throw new IllegalArgumentException(
                    "an object kind needs its apiVersion and kind, was " + apiVersion + " " + kind);
        }
    }

    @Override
    public String toString() {
        return apiVersion + " " + kind;
    }
}
