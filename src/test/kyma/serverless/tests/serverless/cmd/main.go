package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/user"
	"path/filepath"
	"time"

	"github.com/kyma-project/serverless/tests/serverless/internal"
	"github.com/kyma-project/serverless/tests/serverless/internal/executor"
	"github.com/kyma-project/serverless/tests/serverless/internal/testsuite"
	"github.com/sirupsen/logrus"
	"github.com/vrischmann/envconfig"
	"golang.org/x/sync/errgroup"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

func loadRestConfig(context string) (*rest.Config, error) {
	// If the recommended kubeconfig env variable is not specified,
	// try the in-cluster config.
	kubeconfigPath := os.Getenv(clientcmd.RecommendedConfigPathEnvVar)
	if len(kubeconfigPath) == 0 {
		if c, err := rest.InClusterConfig(); err == nil {
			return c, nil
		}
	}

	loadingRules := clientcmd.NewDefaultClientConfigLoadingRules()
	if _, ok := os.LookupEnv("HOME"); !ok {
		u, err := user.Current()
		if err != nil {
			return nil, fmt.Errorf("could not get current user: %w", err)
		}
		loadingRules.Precedence = append(loadingRules.Precedence, filepath.Join(u.HomeDir, clientcmd.RecommendedHomeDir, clientcmd.RecommendedFileName))
	}

	return loadRestConfigWithContext("", loadingRules, context)
}

func loadRestConfigWithContext(apiServerURL string, loader clientcmd.ClientConfigLoader, context string) (*rest.Config, error) {
	return clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		loader,
		&clientcmd.ConfigOverrides{
			ClusterInfo: clientcmdapi.Cluster{
				Server: apiServerURL,
			},
			CurrentContext: context,
		}).ClientConfig()
}

type testSuite struct {
	name string
	test test
}

var availableScenarios = map[string][]testSuite{
	"serverless-integration": {
		{name: "simple", test: testsuite.SimpleFunction},
		{name: "gitops", test: testsuite.Gitops},
	},
	"serverless-integration-fips-mode": {
		{name: "simple", test: testsuite.SimpleFunctionFIPS},
		{name: "gitops", test: testsuite.Gitops},
	},
	"git-auth-integration": {
		{name: "gitauth", test: testsuite.GitAuth},
	},
	"git-auth-integration-fips-mode": {
		{name: "gitauth", test: testsuite.GitAuthFIPS},
	},
	"serverless-contract-tests": {
		{name: "tracing", test: testsuite.FunctionTracing},
		{name: "api-gateway", test: testsuite.FunctionAPIGateway},
		{name: "cloud-events", test: testsuite.FunctionCloudEvents},
		{name: "hana-client", test: testsuite.HanaClient},
	},
	"serverless-contract-tests-fips-mode": {
		{name: "tracing", test: testsuite.FunctionTracingFIPS},
		{name: "api-gateway", test: testsuite.FunctionAPIGatewayFIPS},
		{name: "cloud-events", test: testsuite.FunctionCloudEventsFIPS},
		{name: "hana-client", test: testsuite.HanaClientFIPS},
	},
}

type config struct {
	Test internal.Config
}

func main() {
	logf := logrus.New()
	logf.SetFormatter(&logrus.JSONFormatter{})
	logf.SetReportCaller(false)

	if len(os.Args) < 2 {
		logf.Errorf("Scenario not specified. Specify it as the first argument")
		os.Exit(1)
	}

	cfg, err := loadConfig("APP")
	failOnError(err, logf)
	logf.Printf("loaded config")

	scenarioName := os.Args[1]
	logf.Printf("Scenario: %s", scenarioName)
	os.Args = os.Args[1:]

	pickedScenario, exists := availableScenarios[scenarioName]
	if !exists {
		logf.Errorf("Scenario %s not exist", scenarioName)
		os.Exit(1)
	}

	restConfig, err := loadRestConfig("")
	if err != nil {
		logf.Errorf("Unable to get rest config: %s", err.Error())
		os.Exit(1)
	}

	suite := flag.String("test-suite", "", "Choose test-suite to run from scenario")
	flag.Parse()
	if suite != nil && *suite == "" {
		suite = nil
	}
	rand.Seed(time.Now().UnixNano())

	g, _ := errgroup.WithContext(context.Background())
	for _, ts := range pickedScenario {
		if suite != nil && ts.name != *suite {
			logf.Infof("Skip test suite suite: %s", ts.name)
			continue
		}
		// https://eli.thegreenplace.net/2019/go-internals-capturing-loop-variables-in-closures/
		testName := fmt.Sprintf("%s-%s", scenarioName, ts.name)
		func(ts test, name string) {
			g.Go(func() error {
				return runTestSuite(ts, name, logf, cfg, restConfig)
			})
		}(ts.test, testName)
	}
	failOnError(g.Wait(), logf)
}

type test func(*rest.Config, internal.Config, *logrus.Entry) (executor.Step, error)

func runTestSuite(testToRun test, testSuiteName string, logf *logrus.Logger, cfg config, restConfig *rest.Config) error {
	testSuiteLogger := logf.WithField("test", testSuiteName)
	steps, err := testToRun(restConfig, cfg.Test, testSuiteLogger)
	if err != nil {
		logf.Error(err)
		return err
	}

	runner := executor.NewRunner(executor.WithCleanupDefault(cfg.Test.Cleanup), executor.WithLogger(logf))

	err = runner.Execute(steps)
	if err != nil {
		testSuiteLogger.Error(err)
		return err
	}
	testSuiteLogger.Infof("Test suite succeeded: %s", testSuiteName)
	return nil
}

func loadConfig(prefix string) (config, error) {
	cfg := config{}
	err := envconfig.InitWithPrefix(&cfg, prefix)
	return cfg, err
}

func failOnError(err error, logf *logrus.Logger) {
	if err != nil {
		logf.Error(err)
		os.Exit(1)
	}
}
