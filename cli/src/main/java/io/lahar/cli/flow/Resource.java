package io.lahar.cli.flow;

import io.lahar.cli.job.LaharApi;

/**
 * One kind of object the streams-app serves under {@code /api/v1/<plural>}: the verbs of
 * {@code lahar flow}, {@code lahar jobtemplate} and {@code lahar cronjob} differ only in this.
 *
 * @param kind   the manifest kind ({@code JobFlow}), also how the verbs name the object ("Created JobFlow: ns/name", as vcctl)
 * @param plural the collection's path segment ({@code jobflows})
 */
public record Resource(String kind, String plural) {

    public static final Resource JOB_FLOW = new Resource("JobFlow", "jobflows");
    public static final Resource JOB_TEMPLATE = new Resource("JobTemplate", "jobtemplates");
    public static final Resource CRON_JOB = new Resource("CronJob", "cronjobs");

    /** {@code /api/v1/jobflows}. */
    public String collection() {
        return "/api/v1/" + plural;
    }

    /** {@code /api/v1/jobflows/NS/NAME}, each segment percent-encoded. */
    public String item(String namespace, String name) {
        return collection() + "/" + LaharApi.enc(namespace) + "/" + LaharApi.enc(name);
    }
}
