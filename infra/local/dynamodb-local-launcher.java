import java.lang.reflect.Field;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import software.amazon.dynamodb.services.local.main.ServerRunner;
import software.amazon.dynamodb.services.local.server.DynamoDBProxyServer;

/**
 * Starts DynamoDB Local as its own main class does, with two differences the local runtime needs.
 *
 * 1. Its HTTP listener binds to one address (system property toppubs.dynamodb.host, default
 *    127.0.0.1). DynamoDB Local has no option for it: it builds its Jetty server with
 *    `new Server(port)`, which listens on every interface, and Jetty reads no system property
 *    for the host of a connector made that way. So the connector's host is set here, after
 *    DynamoDB Local has built the server and before it starts it.
 * 2. With toppubs.dynamodb.exitWithParent=true it stops when its standard input closes. The
 *    Node process that started it holds the other end of that pipe, and the kernel closes it
 *    however Node ends, SIGKILL included, so no Java is left behind a killed `npm start`.
 *
 * Telemetry is never configured here (its main class would set it up), so nothing is sent out.
 */
final class DynamoDbLocalLauncher {
  private static final long STOP_GRACE_MS = 3_000;

  private DynamoDbLocalLauncher() {}

  public static void main(String[] args) throws Exception {
    String host = System.getProperty("toppubs.dynamodb.host", "127.0.0.1");
    DynamoDBProxyServer proxy = ServerRunner.createServerFromCommandLineArgs(args);
    Field serverField = DynamoDBProxyServer.class.getDeclaredField("server");
    serverField.setAccessible(true);
    Server jetty = (Server) serverField.get(proxy);
    Connector[] connectors = jetty.getConnectors();
    if (connectors.length == 0) throw new IllegalStateException("DynamoDB Local built a server without a connector");
    for (Connector connector : connectors) {
      if (!(connector instanceof ServerConnector)) {
        throw new IllegalStateException("Unexpected DynamoDB Local connector: " + connector.getClass().getName());
      }
      ((ServerConnector) connector).setHost(host);
    }
    if (Boolean.getBoolean("toppubs.dynamodb.exitWithParent")) exitWhenStdinCloses(proxy);
    proxy.start();
  }

  private static void exitWhenStdinCloses(DynamoDBProxyServer proxy) {
    Thread watcher = new Thread(() -> {
      try {
        byte[] buffer = new byte[256];
        while (System.in.read(buffer) != -1) {
          // The parent never writes; anything it does send is ignored.
        }
      } catch (Exception ignored) {
        // A broken pipe means the same as end of input: the parent is gone.
      }
      // Stop Jetty and the database cleanly, but never hang on it.
      Thread deadline = new Thread(() -> {
        try {
          Thread.sleep(STOP_GRACE_MS);
        } catch (InterruptedException ignored) {
          // Halting now is as good.
        }
        Runtime.getRuntime().halt(1);
      });
      deadline.setDaemon(true);
      deadline.start();
      try {
        proxy.stop();
      } catch (Exception ignored) {
        // Exiting is all that is left to do.
      }
      Runtime.getRuntime().halt(0);
    }, "exit-with-parent");
    watcher.setDaemon(true);
    watcher.start();
  }
}
