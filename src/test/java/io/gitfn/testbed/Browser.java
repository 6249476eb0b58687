package io.gitfn.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Function;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's Chromium, headless, driven through Debian's chromedriver: what the dashboard's tests look at pages with.
 * Both come from the {@code chromium} and {@code chromium-driver} packages, which {@code .ci/run} installs; without
 * them a test fails and says so. Chromium is told not to reach for Google's services, which this machine's closed
 * network refuses many at a time.
 */
public final class Browser implements AutoCloseable {

  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private final ChromeDriver driver;
  private final Path profile;

  private Browser(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /** A new browser with an empty profile and a laptop's window, 1440 × 900. */
  public static Browser start() {
    for (Path binary : new Path[] {CHROMIUM, CHROMEDRIVER}) {
      if (!Files.isExecutable(binary)) {
        throw new IllegalStateException(binary + " is missing: install Debian's chromium and chromium-driver "
            + "packages (bash .ci/run does)");
      }
    }
    try {
      Path profile = Files.createTempDirectory("gitfn-chromium-");
      ChromeOptions options = new ChromeOptions().setBinary(CHROMIUM.toFile()).addArguments(
          "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
          "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
          "--window-size=1440,900", "--user-data-dir=" + profile);
      ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
          .usingAnyFreePort().build();
      return new Browser(new ChromeDriver(service, options), profile);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public Browser open(URI page) {
    driver.get(page.toString());
    return this;
  }

  /**
   * The element {@code css} finds once {@code until} holds for it, within {@code timeout}. The dashboard replaces its
   * page when the cache changes, so an element found may be gone by the time it is read: that try counts as not yet.
   */
  public WebElement await(String css, Function<WebElement, Boolean> until, Duration timeout) {
    return new WebDriverWait(driver, timeout).ignoring(StaleElementReferenceException.class)
        .until(d -> d.findElements(By.cssSelector(css)).stream().filter(until::apply).findFirst().orElse(null));
  }

  public WebDriver driver() {
    return driver;
  }

  /** Runs {@code script} in the page and returns what it returns. */
  public Object script(String script) {
    return driver.executeScript(script);
  }

  /** Saves what the window shows, scrolled so that {@code css}'s element is at its top, as a PNG. */
  public Path screenshot(Path file, String css) {
    driver.executeScript("arguments[0].scrollIntoView()", driver.findElement(By.cssSelector(css)));
    return screenshot(file);
  }

  /** Saves what the window shows as a PNG, and returns where. */
  public Path screenshot(Path file) {
    try {
      Files.createDirectories(file.getParent());
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    driver.quit();
    try (var files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover profile in the temporary folder harms nothing
    }
  }
}
