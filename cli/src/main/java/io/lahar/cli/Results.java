package io.lahar.cli;

/**
 * How every verb words what it did, one way across the CLI: {@code Created Job: default/tf-job},
 * {@code Suspended Job: default/tf-job}, {@code Closed Queue: team-b}, {@code Rejected Job:
 * default/bad} — the form of vcctl's newer verbs (jobflow, jobtemplate), so a script can match
 * {@code ^<Verb> <Kind>: <name>$} whatever the verb. Reasons go to stderr as {@code error:} lines.
 */
public final class Results {

    private Results() {}

    /** {@code done} is the past participle, capitalised ({@code Created}); {@code kind} the manifest kind. */
    public static String line(String done, String kind, String name) {
        return done + " " + kind + ": " + name;
    }
}
