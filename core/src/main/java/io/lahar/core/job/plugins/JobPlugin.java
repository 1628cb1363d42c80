package io.lahar.core.job.plugins;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobSpec;
import io.lahar.core.job.WorldAction;
import java.util.List;

/**
 * A Volcano job plugin (pkg/controllers/job/plugins/interface): it edits each pod before it is
 * created and owns objects of its own. Pure: what it wants created is returned as
 * {@link WorldAction}s, of the kinds its {@link JobPluginType} declares. Built from its arguments
 * for one job; registered in {@link JobPluginRegistry}.
 */
public interface JobPlugin {

    String name();

    /**
     * What admission must reject in these arguments for the job {@code spec}, each in words (the
     * path {@code spec.plugins.<name>} is added); empty when they are fine. {@code spec} is the
     * defaulted spec as given, not yet validated: its tasks may be null.
     */
    default List<String> validate(JobSpec spec) {
        return List.of();
    }

    /** Edits the pod of {@code task} replica {@code index} before it is created. */
    void onPodCreate(ObjectNode pod, Job job, String task, int index);

    /** The objects the plugin needs once the job exists. */
    default List<WorldAction> onJobAdd(Job job) {
        return List.of();
    }

    /** The objects to refresh after a scale update. */
    default List<WorldAction> onJobUpdate(Job job) {
        return List.of();
    }

    /** The objects to delete with the job. */
    default List<WorldAction> onJobDelete(Job job) {
        return List.of();
    }
}
