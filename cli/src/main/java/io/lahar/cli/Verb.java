package io.lahar.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A verb that prints through its command line's streams rather than {@code System.out}, so
 * {@link Lahar#run} (tests, embedding) captures what it says.
 */
public abstract class Verb implements Callable<Integer> {

    @Spec
    protected CommandSpec spec;

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }
}
