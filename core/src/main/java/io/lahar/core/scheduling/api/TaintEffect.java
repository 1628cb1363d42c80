package io.lahar.core.scheduling.api;

public enum TaintEffect {
    NoSchedule,
    PreferNoSchedule,
    NoExecute
}
