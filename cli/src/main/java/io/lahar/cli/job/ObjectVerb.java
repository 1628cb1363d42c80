package io.lahar.cli.job;

import io.lahar.cli.Results;
import picocli.CommandLine.Mixin;

/**
 * A verb on one named object of any REST kind (view, delete, suspend, resume): {@code NAME} and
 * {@code -n}, and the answer reported one way for all of them, so a script reads the same lines
 * whichever kind it acts on.
 */
public abstract class ObjectVerb extends ApiVerb {

    @Mixin
    protected ObjectName object;

    /** {@code <Done> <Kind>: NS/NAME} and 0, or the refusal as {@link #refused} reports it. */
    protected int report(LaharApi.Answer answer, String what, String done, String kind) {
        if (!answer.ok()) {
            return refused(answer, what);
        }
        out().println(Results.line(done, kind, object.label()));
        return 0;
    }

    /** The refusal of {@code what} (a verb and a kind: {@code view JobFlow}) on this object, with every reason. */
    protected int refused(LaharApi.Answer answer, String what) {
        return Output.error(err(), what + " " + object.label(), answer);
    }
}
