package io.lahar.streams.cron;

/** Names of the CronJob engine's sink nodes, one per output topic. */
final class CronSinks {

    static final String RESULTS = "cron-command-results-sink";
    static final String JOB_COMMANDS = "cron-job-commands-sink";
    static final String STATUS = "cronjob-status-sink";
    static final String DEAD_LETTERS = "cron-dead-letters-sink";

    private CronSinks() {}
}
