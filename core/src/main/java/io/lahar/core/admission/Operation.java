package io.lahar.core.admission;

/** The admission request's operation, as in a Kubernetes AdmissionReview. */
public enum Operation {
    CREATE,
    UPDATE,
    DELETE
}
