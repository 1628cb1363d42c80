package io.lahar.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lahar.core.admission.Admission;
import io.lahar.core.admission.AdmissionContext;
import io.lahar.core.admission.AdmissionResult;
import io.lahar.core.admission.Violation;
import io.lahar.core.api.CronJob;
import io.lahar.core.api.Flow;
import io.lahar.core.api.Job;
import io.lahar.core.api.JobFlow;
import io.lahar.core.api.JobTemplate;
import io.lahar.core.api.Manifest;
import io.lahar.core.api.ManifestException;
import io.lahar.core.api.Manifests;
import io.lahar.core.cron.CronScript;
import io.lahar.core.cron.CronSimulation;
import io.lahar.core.cron.CronStep;
import io.lahar.core.flow.FlowScript;
import io.lahar.core.flow.FlowSimulation;
import io.lahar.core.flow.FlowStep;
import io.lahar.core.sim.ScriptException;
import io.lahar.core.sim.ScriptParser;
import io.lahar.core.sim.ScriptStep;
import io.lahar.core.sim.Simulation;
import io.lahar.core.sim.StepReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code lahar simulate}: runs a job through admission and the job engine against an instant
 * kubelet and scheduler, following a script of what happens, offline.
 */
@Command(
        name = "simulate",
        mixinStandardHelpOptions = true,
        description = {
            "What would happen if...: admit a job, then run Volcano's job state machine on a script of events,",
            "with a built-in world that creates and deletes pods and admits pod groups at once.",
            "SCRIPT is JSON Lines, one step a line: {\"pod\":{\"task\":\"worker\",\"index\":0,\"phase\":\"Running\"}}",
            "(phase Pending|Running|Succeeded|Failed|Unknown, optional exitCode, restartCount; or evicted:true),",
            "{\"command\":\"RestartJob\"} (any action; task/pod for RestartTask/RestartPod), {\"advance\":\"30s\"},",
            "{\"update\":{\"minAvailable\":2,\"tasks\":[{\"name\":\"worker\",\"replicas\":4}]}},",
            "{\"podgroup\":\"Inqueue\"}, {\"settle\":true}.",
            "Output: one JSON line per step on stdout, step 0 being the submission.",
            "With JobTemplates and one JobFlow in the -f files, the flow is simulated instead; its SCRIPT steps are",
            "{\"job\":\"b\",\"phase\":\"Completed\"} (the job made from template b), {\"job\":\"b\",\"task\":\"worker\",\"phase\":\"Running\"},",
            "{\"command\":\"delete\"}, {\"advance\":\"30s\"} and {\"template\":{...a JobTemplate}}.",
            "With one CronJob in the -f files, the CronJob is simulated from --start; its SCRIPT steps are",
            "{\"advance\":\"5m\"} or {\"tick\":\"2026-12-01T10:05:00Z\"} (time passes, waking it at each scheduled time),",
            "{\"job\":\"latest\",\"phase\":\"Completed\"} (a job by name, or the last one created),",
            "{\"job\":\"NAME\",\"deleted\":true}, {\"suspend\":true|false} and {\"command\":\"delete\"}.",
            "Exit 0; a rejected job: 1, its violations on stderr; a bad script line or input: 2."
        })
public final class SimulateCommand extends Verb {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(
            names = {"-f", "--filename"},
            required = true,
            paramLabel = "FILE",
            description = "The Volcano Job manifest (other documents in it, such as a queue or a priority class,"
                    + " are taken as existing), or JobTemplates and one JobFlow (YAML or JSON; '-' reads stdin)."
                    + " Repeatable for flows.")
    List<Path> files = new ArrayList<>();

    @Option(
            names = "--events",
            required = true,
            paramLabel = "SCRIPT",
            description = "The script: JSON Lines, one step a line.")
    Path script;

    @Option(
            names = "--existing",
            paramLabel = "FILE",
            arity = "1..*",
            description = "Objects that already exist (queues, priority classes...). Without queues among them,"
                    + " the queues root and default exist.")
    List<Path> existing = new ArrayList<>();

    @Option(
            names = "--start",
            paramLabel = "TIME",
            defaultValue = "1970-01-01T00:00:00Z",
            description = "For a CronJob: when it is created and time starts, RFC 3339 (default: ${DEFAULT-VALUE}).")
    String start;

    @Option(
            names = "--manual",
            description = "Nothing happens by itself: the pod group waits for a podgroup step, deletions for settle.")
    boolean manual;

    @Option(
            names = "--actions",
            description = "Add to each line \"actions\": what the engine asked of the world during the step.")
    boolean showActions;

    @Option(
            names = "--intents",
            description = "Add to each line \"intents\": the pod intents of the step as lahar.pod-intents carries them,"
                    + " each pod's template (env, ports, command) as JSON.")
    boolean showIntents;

    @Override
    public Integer call() {
        PrintWriter out = out();
        PrintWriter err = err();
        Job job;
        List<ScriptStep> steps;
        List<Manifest> stored = new ArrayList<>();
        try {
            List<Manifest> docs = new ArrayList<>();
            for (Path f : files) {
                docs.addAll(Manifests.readAll(read(f)));
            }
            if (docs.stream().anyMatch(m -> m instanceof CronJob)) {
                for (Path p : existing) {
                    stored.addAll(Manifests.readAll(read(p)));
                }
                return simulateCron(out, err, docs, stored, read(script));
            }
            if (docs.stream().anyMatch(m -> m instanceof JobFlow || m instanceof JobTemplate)) {
                for (Path p : existing) {
                    stored.addAll(Manifests.readAll(read(p)));
                }
                return simulateFlow(out, err, docs, stored, read(script));
            }
            Path jobFile = files.get(0);
            if (files.size() != 1) {
                err.println("error: " + files + ": expected exactly one Job, found " + describe(docs));
                return Lahar.EXIT_INPUT;
            }
            List<Job> jobs = docs.stream()
                    .filter(m -> m instanceof Job)
                    .map(m -> (Job) m)
                    .toList();
            if (jobs.size() != 1) {
                err.println("error: " + jobFile + ": expected exactly one Job, found " + describe(docs));
                return Lahar.EXIT_INPUT;
            }
            job = jobs.get(0);
            // Other documents beside the job (its queue, a priority class) exist before it.
            docs.stream().filter(m -> !(m instanceof Job)).forEach(stored::add);
            for (Path p : existing) {
                stored.addAll(Manifests.readAll(read(p)));
            }
        } catch (InputException e) {
            err.println("error: " + e.getMessage());
            return Lahar.EXIT_INPUT;
        } catch (ManifestException e) {
            err.println("error: " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
        try {
            steps = ScriptParser.parse(read(script));
        } catch (InputException e) {
            err.println("error: " + e.getMessage());
            return Lahar.EXIT_INPUT;
        } catch (ScriptException e) {
            err.println("error: " + script + ": " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
        AdmissionContext ctx = AdmissionContext.of(stored);
        AdmissionResult<Manifest> admitted = Admission.create(job, ctx);
        if (!admitted.accepted()) {
            for (Violation v : admitted.violations()) {
                err.println("error: " + v);
            }
            return Lahar.EXIT_REJECTED;
        }
        Simulation sim = new Simulation((Job) admitted.object(), ctx.with(admitted.object()), manual);
        print(out, sim.start(), sim);
        for (int i = 0; i < steps.size(); i++) {
            print(out, sim.run(i + 1, steps.get(i)), sim);
        }
        return 0;
    }

    /**
     * The flow path: admit the JobTemplates then the JobFlow (each seeing those before it), check
     * that every flow entry has its template, and run the flow engine on the script.
     */
    private Integer simulateFlow(
            PrintWriter out, PrintWriter err, List<Manifest> docs, List<Manifest> stored, String scriptText) {
        List<JobFlow> flows = docs.stream()
                .filter(m -> m instanceof JobFlow)
                .map(m -> (JobFlow) m)
                .toList();
        if (flows.size() != 1 || docs.stream().anyMatch(m -> !(m instanceof JobFlow || m instanceof JobTemplate))) {
            err.println("error: " + files + ": expected JobTemplates and exactly one JobFlow, found " + describe(docs));
            return Lahar.EXIT_INPUT;
        }
        List<FlowStep> steps;
        try {
            steps = FlowScript.parse(scriptText);
        } catch (ScriptException e) {
            err.println("error: " + script + ": " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
        AdmissionContext ctx = AdmissionContext.of(stored);
        Map<String, JobTemplate> templates = new LinkedHashMap<>();
        stored.stream().filter(m -> m instanceof JobTemplate).forEach(m -> templates.put(m.name(), (JobTemplate) m));
        List<String> violations = new ArrayList<>();
        JobFlow admittedFlow = null;
        for (Manifest m : docs) {
            if (m instanceof JobFlow) {
                continue;
            }
            AdmissionResult<Manifest> r = Admission.create(m, ctx);
            r.violations().forEach(v -> violations.add(v + " [" + m.kind() + " " + m.name() + "]"));
            if (r.accepted()) {
                ctx = ctx.with(r.object());
                templates.put(r.object().name(), (JobTemplate) r.object());
            }
        }
        JobFlow flow = flows.get(0);
        AdmissionResult<Manifest> r = Admission.create(flow, ctx);
        r.violations().forEach(v -> violations.add(v + " [JobFlow " + flow.name() + "]"));
        if (r.accepted()) {
            admittedFlow = (JobFlow) r.object();
            List<Flow> entries = admittedFlow.spec().flowsOrEmpty();
            for (int i = 0; i < entries.size(); i++) {
                if (!templates.containsKey(entries.get(i).name())) {
                    violations.add("spec.flows[" + i + "].name: JobTemplate \""
                            + entries.get(i).name() + "\" not found among the -f and --existing files [JobFlow "
                            + flow.name() + "]");
                }
            }
        }
        if (!violations.isEmpty()) {
            violations.forEach(v -> err.println("error: " + v));
            return Lahar.EXIT_REJECTED;
        }
        FlowSimulation sim = new FlowSimulation(admittedFlow, List.copyOf(templates.values()));
        printJson(out, sim.start());
        for (int i = 0; i < steps.size(); i++) {
            printJson(out, sim.run(i + 1, steps.get(i)));
        }
        return 0;
    }

    /**
     * The CronJob path: admit it (documents beside it exist before it: its queue, a priority
     * class), then run its controller on the script from {@code --start}; the jobs it creates go
     * through job admission against the same objects.
     */
    private Integer simulateCron(
            PrintWriter out, PrintWriter err, List<Manifest> docs, List<Manifest> stored, String scriptText) {
        List<CronJob> cronJobs = docs.stream()
                .filter(m -> m instanceof CronJob)
                .map(m -> (CronJob) m)
                .toList();
        if (cronJobs.size() != 1) {
            err.println("error: " + files + ": expected exactly one CronJob, found " + describe(docs));
            return Lahar.EXIT_INPUT;
        }
        java.time.Instant startTime;
        try {
            startTime = java.time.Instant.parse(start);
        } catch (java.time.format.DateTimeParseException e) {
            err.println(
                    "error: --start: expected an RFC 3339 time such as 2026-12-01T10:00:00Z, got \"" + start + "\"");
            return Lahar.EXIT_INPUT;
        }
        List<CronStep> steps;
        try {
            steps = CronScript.parse(scriptText);
        } catch (ScriptException e) {
            err.println("error: " + script + ": " + e.getMessage());
            return Lahar.EXIT_INPUT;
        }
        List<Manifest> all = new ArrayList<>(stored);
        docs.stream().filter(m -> !(m instanceof CronJob)).forEach(all::add);
        AdmissionContext ctx = AdmissionContext.of(all);
        CronJob cronJob = cronJobs.get(0);
        AdmissionResult<Manifest> r = Admission.create(cronJob, ctx);
        if (!r.accepted()) {
            r.violations().forEach(v -> err.println("error: " + v + " [CronJob " + cronJob.name() + "]"));
            return Lahar.EXIT_REJECTED;
        }
        CronJob admitted = (CronJob) r.object();
        // What the API server adds on create: the namespace, a uid, the creation time.
        admitted = io.lahar.core.cron.CronJobs.stamp(
                admitted, admitted.namespace(), "simulated-" + admitted.name(), startTime.toEpochMilli());
        CronSimulation sim = new CronSimulation(admitted, ctx, startTime.toEpochMilli());
        printJson(out, sim.start());
        for (int i = 0; i < steps.size(); i++) {
            printJson(out, sim.run(i + 1, steps.get(i)));
        }
        return 0;
    }

    private static void printJson(PrintWriter out, Object report) {
        out.println(Manifests.toJson(report));
    }

    private void print(PrintWriter out, StepReport r, Simulation sim) {
        try {
            if (!showActions && !showIntents) {
                out.println(JSON.writeValueAsString(r));
                return;
            }
            ObjectNode line = JSON.valueToTree(r);
            if (showActions) {
                ArrayNode list = line.putArray("actions");
                sim.stepActions().forEach(a -> list.add(Simulation.describe(a)));
            }
            if (showIntents) {
                line.set("intents", IntentView.of(sim.state().job(), sim.state().version(), sim.stepActions()));
            }
            out.println(JSON.writeValueAsString(line));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a step report is plain data", e);
        }
    }

    static String describe(List<Manifest> docs) {
        if (docs.isEmpty()) {
            return "no manifest";
        }
        return docs.stream().map(Manifest::kind).toList().toString();
    }

    static String read(Path p) {
        try {
            return InputFile.read(p);
        } catch (IOException e) {
            throw new InputException(p + ": cannot read file: "
                    + (e instanceof java.nio.file.NoSuchFileException ? "no such file" : e.getMessage()));
        }
    }

    static final class InputException extends RuntimeException {
        InputException(String message) {
            super(message);
        }
    }
}
