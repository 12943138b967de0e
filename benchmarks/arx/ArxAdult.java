import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.deidentifier.arx.ARXAnonymizer;
import org.deidentifier.arx.ARXConfiguration;
import org.deidentifier.arx.ARXLattice.ARXNode;
import org.deidentifier.arx.ARXLattice.Anonymity;
import org.deidentifier.arx.ARXPopulationModel;
import org.deidentifier.arx.ARXResult;
import org.deidentifier.arx.AttributeType;
import org.deidentifier.arx.AttributeType.Hierarchy;
import org.deidentifier.arx.Data;
import org.deidentifier.arx.DataHandle;
import org.deidentifier.arx.criteria.AverageReidentificationRisk;
import org.deidentifier.arx.criteria.BasicBLikeness;
import org.deidentifier.arx.criteria.DDisclosurePrivacy;
import org.deidentifier.arx.criteria.EnhancedBLikeness;
import org.deidentifier.arx.criteria.KAnonymity;
import org.deidentifier.arx.criteria.PopulationUniqueness;
import org.deidentifier.arx.criteria.PrivacyCriterion;
import org.deidentifier.arx.criteria.SampleUniqueness;
import org.deidentifier.arx.metric.Metric;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness.PopulationUniquenessModel;

/**
 * ARX 3.9.2 on its own Adult (data/adult.csv, ';' separated, with data/adult_hierarchy_*.csv):
 * nine quasi-identifiers, k-anonymity, a suppression limit, one quality model; one JSON line
 * per setting on stdout. Built and run by benchmarks/arx/build_arx.sh and
 * benchmarks/bench_arx.py.
 *
 * <pre>
 * java -cp "$(cat /work/arx/classpath)" ArxAdult DATA_DIR [--k 5] [--suppression 0,0.02,0.04]
 *      [--metrics precision,loss,entropy] [--repeats 5] [--model MODEL] [--population-size N]
 * </pre>
 *
 * {@code --model} adds one more privacy model (issue 39); {@code --k 1} (or 0) leaves
 * k-anonymity out. With a model the quasi-identifiers are the eight of Adult without
 * occupation, which is the sensitive attribute of the attribute models
 * ({@code AttributeType.SENSITIVE_ATTRIBUTE}) and an insensitive column otherwise. MODEL is
 * {@code beta-basic:B} ({@code BasicBLikeness(occupation, B)}), {@code beta-enhanced:B}
 * ({@code EnhancedBLikeness}), {@code delta-disclosure:D} ({@code DDisclosurePrivacy}),
 * {@code sample-uniqueness:U} ({@code SampleUniqueness(U)}), {@code average-risk:A}
 * ({@code AverageReidentificationRisk(A)}) or {@code population-uniqueness:MODEL:U}, MODEL one
 * of dankar, pitman, zayatz, snb ({@code PopulationUniqueness(U, PopulationUniquenessModel,
 * ARXPopulationModel.create(N))} with N of {@code --population-size}).
 *
 * Each setting is anonymized {@code --repeats} times in this JVM (the data read afresh each
 * time, outside the timer) and the last run is reported: "anonymize_seconds" is the wall time
 * of {@code ARXAnonymizer.anonymize} (ARX's encoding of the data included), "search_seconds"
 * ARX's own {@code ARXResult.getTime()} (the traversal of the lattice by Flash and the
 * building of the result lattice), "anonymize_cpu_seconds" the CPU time of the calling thread
 * during {@code anonymize} (the machine may be shared: CPU time is steadier than wall time) and
 * "anonymize_process_cpu_seconds" that of the whole JVM (JIT and GC included). "checked" is
 * {@code ARXResult.getProcessStatistics().getTransformationsChecked()}: the nodes of the
 * lattice whose anonymity ARX determined by a check or whose loss it computed, counted by
 * ARX from the node states of {@code ARXResult.getLattice()}; "tagged" counts the nodes whose
 * anonymity ARX knows (checked or inferred by predictive tagging), "checked_flag" the nodes
 * with {@code ARXNode.isChecked()}, "materialized" the nodes ARX's result lattice holds
 * ({@code ARXLattice.getSize()}: the nodes Flash touched, checked or tagged) and "lattice_size"
 * the whole lattice ({@code ARXLattice.getVirtualSize()}).
 */
public final class ArxAdult {

    /** The quasi-identifiers, in the order of ARX's Adult example and file. */
    static final String[] QIS = {
        "sex", "age", "race", "marital-status", "education", "native-country",
        "workclass", "occupation", "salary-class",
    };

    /** The quasi-identifiers with a model of issue 39: Adult's without occupation. */
    static final String[] QIS_8 = {
        "sex", "age", "race", "marital-status", "education", "native-country",
        "workclass", "salary-class",
    };

    /** The sensitive attribute of the attribute models. */
    static final String SENSITIVE = "occupation";

    /** CPU time of this thread (ARX's search runs in the calling thread). */
    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /** CPU time of the JVM, its compiler and collector threads included. */
    static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private ArxAdult() {
    }

    static Data load(File dir, String[] qis, String model) throws IOException {
        Data data = Data.create(new File(dir, "adult.csv"), StandardCharsets.UTF_8, ';');
        for (String qi : qis) {
            File file = new File(dir, "adult_hierarchy_" + qi + ".csv");
            data.getDefinition().setAttributeType(qi, Hierarchy.create(file, StandardCharsets.UTF_8, ';'));
        }
        if (model != null) {
            data.getDefinition().setAttributeType(SENSITIVE, isAttributeModel(model)
                    ? AttributeType.SENSITIVE_ATTRIBUTE : AttributeType.INSENSITIVE_ATTRIBUTE);
        }
        return data;
    }

    static boolean isAttributeModel(String model) {
        return model.startsWith("beta-") || model.startsWith("delta-disclosure:");
    }

    /** The privacy model of {@code --model} (see the class comment). */
    static PrivacyCriterion model(String spec, long populationSize) {
        String[] part = spec.split(":");
        switch (part[0]) {
            case "beta-basic":
                return new BasicBLikeness(SENSITIVE, Double.parseDouble(part[1]));
            case "beta-enhanced":
                return new EnhancedBLikeness(SENSITIVE, Double.parseDouble(part[1]));
            case "delta-disclosure":
                return new DDisclosurePrivacy(SENSITIVE, Double.parseDouble(part[1]));
            case "sample-uniqueness":
                return new SampleUniqueness(Double.parseDouble(part[1]));
            case "average-risk":
                return new AverageReidentificationRisk(Double.parseDouble(part[1]));
            case "population-uniqueness":
                if (populationSize <= 0) {
                    throw new IllegalArgumentException("population uniqueness needs --population-size");
                }
                return new PopulationUniqueness(Double.parseDouble(part[2]),
                        PopulationUniquenessModel.valueOf(part[1].toUpperCase(Locale.ROOT)),
                        ARXPopulationModel.create(populationSize));
            default:
                throw new IllegalArgumentException("unknown model " + spec);
        }
    }

    static Metric<?> metric(String name) {
        switch (name) {
            case "precision":
                return Metric.createPrecisionMetric();
            case "loss":
                return Metric.createLossMetric();
            case "entropy":
                return Metric.createEntropyMetric();
            default:
                throw new IllegalArgumentException("unknown metric " + name + ": precision, loss or entropy");
        }
    }

    static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    public static void main(String[] args) throws IOException {
        if (args.length < 1) {
            System.err.println("usage: ArxAdult DATA_DIR [--k 5] [--suppression 0,0.02,0.04] "
                    + "[--metrics precision] [--repeats 5] [--model MODEL] [--population-size N]");
            System.exit(2);
        }
        File dir = new File(args[0]);
        int k = 5;
        String[] limits = {"0", "0.02", "0.04"};
        String[] metrics = {"precision"};
        int repeats = 5;
        String model = null;
        long populationSize = 0;
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--k": k = Integer.parseInt(args[i + 1]); break;
                case "--suppression": limits = args[i + 1].split(","); break;
                case "--metrics": metrics = args[i + 1].split(","); break;
                case "--repeats": repeats = Integer.parseInt(args[i + 1]); break;
                case "--model": model = args[i + 1]; break;
                case "--population-size": populationSize = Long.parseLong(args[i + 1]); break;
                default: throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        for (String m : metrics) {
            for (String limit : limits) {
                run(dir, k, Double.parseDouble(limit), m, repeats, model, populationSize);
            }
        }
    }

    static void run(File dir, int k, double limit, String metricName, int repeats, String model,
                    long populationSize) throws IOException {
        String[] qis = model == null ? QIS : QIS_8;
        List<Double> anonymizeSeconds = new ArrayList<>();
        List<Double> searchSeconds = new ArrayList<>();
        ARXResult result = null;
        double threadCpu = Double.NaN;
        double processCpu = Double.NaN;
        for (int r = 0; r < repeats; r++) {
            Data data = load(dir, qis, model);
            ARXConfiguration config = ARXConfiguration.create();
            if (k > 1) {
                config.addPrivacyModel(new KAnonymity(k));
            }
            if (model != null) {
                config.addPrivacyModel(model(model, populationSize));
            }
            config.setSuppressionLimit(limit);
            config.setQualityModel(metric(metricName));
            ARXAnonymizer anonymizer = new ARXAnonymizer();
            long c0 = THREADS.getCurrentThreadCpuTime();
            long p0 = PROCESS.getProcessCpuTime();
            long t0 = System.nanoTime();
            result = anonymizer.anonymize(data, config);
            anonymizeSeconds.add((System.nanoTime() - t0) / 1e9);
            threadCpu = (THREADS.getCurrentThreadCpuTime() - c0) / 1e9;
            processCpu = (PROCESS.getProcessCpuTime() - p0) / 1e9;
            searchSeconds.add(result.getTime() / 1e3);
        }
        ARXNode optimum = result.getGlobalOptimum();
        StringBuilder out = new StringBuilder();
        out.append("{\"metric\": ").append(json(metricName));
        out.append(", \"k\": ").append(k);
        out.append(", \"model\": ").append(model == null ? "null" : json(model));
        out.append(", \"population_size\": ").append(populationSize);
        out.append(", \"suppression_limit\": ").append(limit);
        out.append(", \"optimum_found\": ").append(result.getOptimumFound());
        if (optimum == null) {
            out.append(", \"levels\": null, \"loss\": null, \"suppressed\": null");
        } else {
            out.append(", \"levels\": {");
            for (int i = 0; i < qis.length; i++) {
                out.append(i > 0 ? ", " : "").append(json(qis[i])).append(": ")
                   .append(optimum.getGeneralization(qis[i]));
            }
            out.append("}");
            out.append(", \"loss\": ").append(String.format(Locale.ROOT, "%.17g",
                    Double.parseDouble(optimum.getHighestScore().toString())));
            DataHandle output = result.getOutput(false);
            int suppressed = 0;
            for (int row = 0; row < output.getNumRows(); row++) {
                if (output.isOutlier(row)) {
                    suppressed++;
                }
            }
            out.append(", \"suppressed\": ").append(suppressed);
            out.append(", \"rows\": ").append(output.getNumRows());
        }
        int tagged = 0;
        int checkedFlag = 0;
        for (ARXNode[] level : result.getLattice().getLevels()) {
            for (ARXNode node : level) {
                Anonymity a = node.getAnonymity();
                if (a == Anonymity.ANONYMOUS || a == Anonymity.NOT_ANONYMOUS) {
                    tagged++;
                }
                if (node.isChecked()) {
                    checkedFlag++;
                }
            }
        }
        out.append(", \"checked\": ").append(result.getProcessStatistics().getTransformationsChecked());
        out.append(", \"checked_flag\": ").append(checkedFlag);
        out.append(", \"tagged\": ").append(tagged);
        out.append(", \"materialized\": ").append(result.getLattice().getSize());
        out.append(", \"lattice_size\": ").append(result.getLattice().getVirtualSize());
        out.append(", \"anonymize_seconds\": ").append(anonymizeSeconds.get(anonymizeSeconds.size() - 1));
        out.append(", \"anonymize_cpu_seconds\": ").append(threadCpu);
        out.append(", \"anonymize_process_cpu_seconds\": ").append(processCpu);
        out.append(", \"search_seconds\": ").append(searchSeconds.get(searchSeconds.size() - 1));
        out.append(", \"anonymize_seconds_all\": ").append(anonymizeSeconds);
        out.append(", \"search_seconds_all\": ").append(searchSeconds);
        out.append("}");
        System.out.println(out);
    }
}
