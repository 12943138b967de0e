import com.carrotsearch.hppc.IntIntOpenHashMap;
import org.deidentifier.arx.ARXPopulationModel;
import org.deidentifier.arx.ARXSolverConfiguration;
import org.deidentifier.arx.risk.RiskModelHistogram;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness;
import org.deidentifier.arx.risk.RiskModelPopulationUniqueness.PopulationUniquenessModel;

/**
 * ARX 3.9.2's estimates of the population uniques of a class-size histogram, one JSON line:
 * {@code RiskModelPopulationUniqueness} with {@code ARXPopulationModel.create(N)} and the default
 * {@code ARXSolverConfiguration}; "dankar_no_fallback" is what ARX's {@code PopulationUniqueness}
 * criterion reads ({@code getNumUniqueTuplesDankar(false)}). An estimate ARX finds no valid value
 * for is 0. Used by {@code benchmarks/bench_arx.py --exhaustive}.
 *
 * <pre>
 * java -cp "$(cat /work/arx/classpath)" ArxUniques 1:626,2:233,3:106 500000
 * </pre>
 */
public final class ArxUniques {
    public static void main(String[] args) {
        IntIntOpenHashMap map = new IntIntOpenHashMap();
        for (String kv : args[0].split(",")) {
            String[] p = kv.split(":");
            map.put(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
        }
        long n = Long.parseLong(args[1]);
        RiskModelPopulationUniqueness m = new RiskModelPopulationUniqueness(
                ARXPopulationModel.create(n), new RiskModelHistogram(map), ARXSolverConfiguration.create());
        System.out.println("{\"pitman\": " + m.getNumUniqueTuples(PopulationUniquenessModel.PITMAN)
                + ", \"zayatz\": " + m.getNumUniqueTuples(PopulationUniquenessModel.ZAYATZ)
                + ", \"snb\": " + m.getNumUniqueTuples(PopulationUniquenessModel.SNB)
                + ", \"dankar_no_fallback\": " + m.getNumUniqueTuplesDankar(false) + "}");
    }
}
