import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import com.carrotsearch.hppc.IntIntOpenHashMap;
import de.linearbits.newtonraphson.*;
import org.deidentifier.arx.ARXPopulationModel;
import org.deidentifier.arx.ARXSolverConfiguration;
import org.deidentifier.arx.risk.RiskModelHistogram;

/**
 * ARX 3.9.2's Pitman estimate step by step, for a class-size histogram "size:count,..." and N:
 * its moment start (theta, alpha), the estimate of {@code ModelPitman}, and the root that its
 * Newton-Raphson reaches from that start on the closed-form equations (the one ARX uses when
 * the iterative form confirms it) and on the iterative form. Reaches ARX's private functions by
 * reflection (a diagnostic, not an API). docs/bench_arx.md, issue 39, cause 2.
 *
 * <pre>
 * java -cp "$(cat /work/arx/classpath)" ArxPitman 1:626,2:233,3:106 500000
 * </pre>
 */
public final class ArxPitman {
    @SuppressWarnings("unchecked")
    public static void main(String[] args) throws Exception {
        IntIntOpenHashMap map = new IntIntOpenHashMap();
        for (String kv : args[0].split(",")) {
            String[] p = kv.split(":");
            map.put(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
        }
        double pop = Double.parseDouble(args[1]);
        RiskModelHistogram histogram = new RiskModelHistogram(map);
        int[] classes = histogram.getHistogram();
        double c1 = 0, c2 = 0, u = 0, n = 0;
        for (int i = 0; i < classes.length; i += 2) {
            if (classes[i] == 1) c1 = classes[i + 1];
            if (classes[i] == 2) c2 = classes[i + 1];
            u += classes[i + 1];
            n += (double) classes[i] * classes[i + 1];
        }
        c2 = c2 != 0 ? c2 : 1;
        double c = (c1 * (c1 - 1)) / c2;
        double t = ((n * u * c) - (c1 * (n - 1) * ((2 * u) + c))) / (((2 * c1 * u) + (c1 * c)) - (n * c));
        double a = ((t * (c1 - n)) + ((n - 1) * c1)) / (n * u);
        System.out.println("start t=" + t + " a=" + a);
        Class<?> cls = Class.forName("org.deidentifier.arx.risk.ModelPitman");
        Constructor<?> ctor = cls.getDeclaredConstructors()[0];
        ctor.setAccessible(true);
        Class<?> wb = Class.forName("org.deidentifier.arx.common.WrappedBoolean");
        Object stop = wb.getConstructor().newInstance();
        ARXSolverConfiguration config = ARXSolverConfiguration.create();
        Object model = ctor.newInstance(ARXPopulationModel.create((long) pop), histogram, config, stop);
        Method gnu = cls.getMethod("getNumUniques"); gnu.setAccessible(true); System.out.println("ARX uniques " + gnu.invoke(model));
        Method closed = cls.getDeclaredMethod("getMasterFunctionClosed", int[].class, double.class, double.class);
        Method iter = cls.getDeclaredMethod("getMasterFunctionIterative", int[].class, double.class, double.class);
        Method test = cls.getDeclaredMethod("getObjectFunctionsIterative", int[].class, double.class, double.class);
        Method constraint = cls.getDeclaredMethod("getConstraint");
        for (Method m : new Method[] {closed, iter, test, constraint}) m.setAccessible(true);
        NewtonRaphson2D solver = new NewtonRaphson2D(
                (Function<Vector2D, Pair<Vector2D, SquareMatrix2D>>) closed.invoke(model, classes, u, n),
                (Constraint2D) constraint.invoke(model)).configure(config);
        Vector2D r = solver.solve(new Vector2D(t, a));
        Vector2D check = ((Function<Vector2D, Vector2D>) test.invoke(model, classes, u, n)).evaluate(r);
        System.out.println("closed: t=" + r.x + " a=" + r.y + " iterative residual " + check.x + ", " + check.y
                + " " + solver.getMeasures());
        NewtonRaphson2D solver2 = new NewtonRaphson2D(
                (Function<Vector2D, Pair<Vector2D, SquareMatrix2D>>) iter.invoke(model, classes, u, n),
                (Constraint2D) constraint.invoke(model)).configure(config);
        Vector2D r2 = solver2.solve(new Vector2D(t, a));
        Vector2D check2 = ((Function<Vector2D, Vector2D>) test.invoke(model, classes, u, n)).evaluate(r2);
        System.out.println("iterative: t=" + r2.x + " a=" + r2.y + " residual " + check2.x + ", " + check2.y
                + " " + solver2.getMeasures());
    }
}
