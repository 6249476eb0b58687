package testsuite

import (
	"encoding/base64"
	"fmt"
	"time"

	"github.com/kyma-project/serverless/tests/serverless/internal"
	"github.com/kyma-project/serverless/tests/serverless/internal/assertion"
	"github.com/kyma-project/serverless/tests/serverless/internal/executor"
	"github.com/kyma-project/serverless/tests/serverless/internal/resources/function"
	"github.com/kyma-project/serverless/tests/serverless/internal/resources/namespace"
	"github.com/kyma-project/serverless/tests/serverless/internal/resources/runtimes"
	"github.com/kyma-project/serverless/tests/serverless/internal/resources/secret"
	"github.com/kyma-project/serverless/tests/serverless/internal/utils"

	"github.com/vrischmann/envconfig"

	serverlessv1alpha2 "github.com/kyma-project/serverless/components/buildless-serverless/api/v1alpha2"
	"github.com/pkg/errors"
	"github.com/sirupsen/logrus"
	"k8s.io/client-go/dynamic"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
)

type testRepo struct {
	name             string
	provider         string
	url              string
	baseDir          string
	expectedResponse string
	reference        string
	secretData       map[string]string
	runtime          serverlessv1alpha2.Runtime
	auth             *serverlessv1alpha2.RepositoryAuth
}

type config struct {
	Azure  AzureRepo  `envconfig:"AZURE"`
	Github GithubRepo `envconfig:"GITHUB"`
}

type SSHAuth struct {
	Key string
}

type BasicAuth struct {
	Username string
	Password string
}

type GithubRepo struct {
	Reference string `envconfig:"default=main"`
	URL       string `envconfig:"default=git@github.com:halamix2/private-fn-for-e2e-serverless-tests.git"`
	BaseDir   string `envconfig:"default=/"`
	SSHAuth
}

type AzureRepo struct {
	Reference string `envconfig:"default=main"`
	URL       string `envconfig:"default=https://kyma-wookiee@dev.azure.com/kyma-wookiee/kyma-function/_git/kyma-function"`
	SSHURL    string `envconfig:"default=git@ssh.dev.azure.com:v3/kyma-wookiee/kyma-function/kyma-function"`
	BaseDir   string `envconfig:"default=/code"`
	BasicAuth
	SSHAuth
}

type configFIPS struct {
	Azure AzureRepoFIPS `envconfig:"AZURE"`
}

type AzureRepoFIPS struct {
	Reference string `envconfig:"default=main"`
	URL       string `envconfig:"default=https://kyma-wookiee@dev.azure.com/kyma-wookiee/kyma-function/_git/kyma-function"`
	BaseDir   string `envconfig:"default=/code"`
	BasicAuth
}

func GitAuthFIPS(restConfig *rest.Config, cfg internal.Config, logf *logrus.Entry) (executor.Step, error) {
	testCfg := &configFIPS{}
	if err := envconfig.InitWithPrefix(testCfg, "APP_TEST"); err != nil {
		return nil, errors.Wrap(err, "while loading git auth test config")
	}

	coreCli, err := typedcorev1.NewForConfig(restConfig)
	if err != nil {
		return nil, errors.Wrapf(err, "while creating k8s core client")
	}

	genericContainer, err := setupSharedContainer(restConfig, cfg, logf)
	if err != nil {
		return nil, errors.Wrapf(err, "while creating Shared Container")
	}

	azureBasicTC := getAzureDevopsBasicTestcase(testCfg.Azure.URL, testCfg.Azure.BaseDir, testCfg.Azure.Reference, testCfg.Azure.BasicAuth)
	azureBasicSecret := secret.NewSecret(azureBasicTC.auth.SecretName, genericContainer)
	azureBasicFn := function.NewFunction(azureBasicTC.name, genericContainer.Namespace, cfg.KubectlProxyEnabled, genericContainer)

	return executor.NewSerialTestRunner(logf, "Test Git function authentication",
		namespace.NewNamespaceStep(logf, fmt.Sprintf("Create %s namespace", genericContainer.Namespace), genericContainer.Namespace, coreCli),
		executor.NewParallelRunner(logf, "Providers tests",
			executor.NewSerialTestRunner(genericContainer.Log, fmt.Sprintf("%s Function Azure basic auth test", azureBasicTC.provider),
				secret.CreateSecret(genericContainer.Log, azureBasicSecret, "Create Azure Basic Auth Secret", azureBasicTC.secretData),
				createAzureFunctionStep(genericContainer.Log, azureBasicFn, azureBasicTC)))), nil
}

func GitAuth(restConfig *rest.Config, cfg internal.Config, logf *logrus.Entry) (executor.Step, error) {
	testCfg := &config{}
	if err := envconfig.InitWithPrefix(testCfg, "APP_TEST"); err != nil {
		return nil, errors.Wrap(err, "while loading git auth test config")
	}

	coreCli, err := typedcorev1.NewForConfig(restConfig)
	if err != nil {
		return nil, errors.Wrapf(err, "while creating k8s core client")
	}

	genericContainer, err := setupSharedContainer(restConfig, cfg, logf)
	if err != nil {
		return nil, errors.Wrapf(err, "while creating Shared Container")
	}
	poll := utils.Poller{
		MaxPollingTime:     cfg.MaxPollingTime,
		InsecureSkipVerify: cfg.InsecureSkipVerify,
		Log:                genericContainer.Log,
		DataKey:            internal.TestDataKey,
	}

	azureBasicTC := getAzureDevopsBasicTestcase(testCfg.Azure.URL, testCfg.Azure.BaseDir, testCfg.Azure.Reference, testCfg.Azure.BasicAuth)
	azureBasicSecret := secret.NewSecret(azureBasicTC.auth.SecretName, genericContainer)
	azureBasicFn := function.NewFunction(azureBasicTC.name, genericContainer.Namespace, cfg.KubectlProxyEnabled, genericContainer)

	azureSSHTC, err := getAzureDevopsSshTestcase(testCfg)
	if err != nil {
		return nil, errors.Wrapf(err, "while setting azure ssh testcase")
	}
	azureSSHSecret := secret.NewSecret(azureSSHTC.auth.SecretName, genericContainer)
	azureSSHFn := function.NewFunction(azureSSHTC.name, genericContainer.Namespace, cfg.KubectlProxyEnabled, genericContainer)

	githubTC, err := getGithubTestcase(testCfg)
	if err != nil {
		return nil, errors.Wrapf(err, "while setting github testcase")
	}
	githubSecret := secret.NewSecret(githubTC.auth.SecretName, genericContainer)
	githubFn := function.NewFunction(githubTC.name, genericContainer.Namespace, cfg.KubectlProxyEnabled, genericContainer)

	return executor.NewSerialTestRunner(logf, "Test Git function authentication",
		namespace.NewNamespaceStep(logf, fmt.Sprintf("Create %s namespace", genericContainer.Namespace), genericContainer.Namespace, coreCli),
		executor.NewParallelRunner(logf, "Providers tests",
			executor.NewSerialTestRunner(genericContainer.Log, fmt.Sprintf("%s Function Azure basic auth test", azureBasicTC.provider),
				secret.CreateSecret(genericContainer.Log, azureBasicSecret, "Create Azure Basic Auth Secret", azureBasicTC.secretData),
				createAzureFunctionStep(genericContainer.Log, azureBasicFn, azureBasicTC),
				assertion.NewHTTPCheck(genericContainer.Log, "Git Function simple check through gateway", azureBasicFn.FunctionURL, poll, azureBasicTC.expectedResponse)),
			executor.NewSerialTestRunner(genericContainer.Log, fmt.Sprintf("%s Function Azure SSH auth test", azureSSHTC.provider),
				secret.CreateSecret(genericContainer.Log, azureSSHSecret, "Create Azure SSH Auth Secret", azureSSHTC.secretData),
				createAzureFunctionStep(genericContainer.Log, azureSSHFn, azureSSHTC),
				assertion.NewHTTPCheck(genericContainer.Log, "Git Function simple check through gateway", azureSSHFn.FunctionURL, poll, azureSSHTC.expectedResponse)),
			executor.NewSerialTestRunner(genericContainer.Log, fmt.Sprintf("%s Function auth test", githubTC.provider),
				secret.CreateSecret(genericContainer.Log, githubSecret, "Create Github Auth Secret", githubTC.secretData),
				createGithubFunctionStep(genericContainer.Log, githubFn, githubTC),
				assertion.NewHTTPCheck(genericContainer.Log, "Git Function simple check through gateway", githubFn.FunctionURL, poll, githubTC.expectedResponse)))), nil
}

func setupSharedContainer(restConfig *rest.Config, cfg internal.Config, logf *logrus.Entry) (utils.Container, error) {
	now := time.Now()
	cfg.Namespace = fmt.Sprintf("%s-%02dh%02dm%02ds", "test-serverless-gitauth", now.Hour(), now.Minute(), now.Second())

	dynamicCli, err := dynamic.NewForConfig(restConfig)
	if err != nil {
		return utils.Container{}, errors.Wrapf(err, "while creating dynamic client")
	}

	return utils.Container{
		DynamicCli:  dynamicCli,
		Namespace:   cfg.Namespace,
		WaitTimeout: cfg.WaitTimeout,
		Verbose:     cfg.Verbose,
		Log:         logf,
	}, nil
}

func createBasicAuthSecretData(basicAuth BasicAuth) map[string]string {
	return map[string]string{
		"username": basicAuth.Username,
		"password": basicAuth.Password,
	}
}

func createSSHAuthSecretData(auth SSHAuth) (map[string]string, error) {
	// this value will be base64 encoded since it's passed as an environment variable.
	// we have to decode it first before it's passed to the secret creator since it will re-encode it again.
	decoded, err := base64.StdEncoding.DecodeString(auth.Key)

	return map[string]string{"key": string(decoded)}, err
}

func getAzureDevopsBasicTestcase(url, baseDir, reference string, auth BasicAuth) testRepo {
	return testRepo{name: "azure-devops-func",
		provider:         "AzureDevOps",
		url:              url,
		baseDir:          baseDir,
		reference:        reference,
		expectedResponse: "Hello azure",
		runtime:          serverlessv1alpha2.NodeJs24,
		auth: &serverlessv1alpha2.RepositoryAuth{
			Type:       serverlessv1alpha2.RepositoryAuthBasic,
			SecretName: "azure-devops-auth-secret",
		},
		secretData: createBasicAuthSecretData(auth)}
}

func getAzureDevopsSshTestcase(cfg *config) (testRepo, error) {
	secretData, err := createSSHAuthSecretData(cfg.Azure.SSHAuth)
	if err != nil {
		return testRepo{}, errors.Wrapf(err, "while decoding ssh key")
	}
	return testRepo{name: "azure-devops-ssh-func",
		provider:         "AzureDevOps",
		url:              cfg.Azure.SSHURL,
		baseDir:          cfg.Azure.BaseDir,
		reference:        cfg.Azure.Reference,
		expectedResponse: "Hello azure",
		runtime:          serverlessv1alpha2.NodeJs24,
		auth: &serverlessv1alpha2.RepositoryAuth{
			Type:       serverlessv1alpha2.RepositoryAuthSSHKey,
			SecretName: "azure-devops-ssh-secret",
		},
		secretData: secretData}, nil
}

func getGithubTestcase(cfg *config) (testRepo, error) {
	secretData, err := createSSHAuthSecretData(cfg.Github.SSHAuth)
	if err != nil {
		return testRepo{}, errors.Wrapf(err, "while decoding ssh key")
	}
	return testRepo{
		name:             "github-func",
		provider:         "Github",
		url:              cfg.Github.URL,
		baseDir:          cfg.Github.BaseDir,
		reference:        cfg.Github.Reference,
		expectedResponse: "hello github",
		runtime:          serverlessv1alpha2.Python312,
		auth: &serverlessv1alpha2.RepositoryAuth{
			Type:       serverlessv1alpha2.RepositoryAuthSSHKey,
			SecretName: "github-auth-secret",
		},
		secretData: secretData,
	}, nil
}

func createAzureFunctionStep(logf *logrus.Entry, gitFn *function.Function, testCaseConfig testRepo) executor.Step {
	return function.CreateFunction(logf, gitFn, "Create Azure Function",
		buildFunctionConfigFromTestCaseConfig(testCaseConfig))
}

func createGithubFunctionStep(logf *logrus.Entry, gitFn *function.Function, testCaseConfig testRepo) executor.Step {
	return function.CreateFunction(logf, gitFn, "Create Github Function",
		buildFunctionConfigFromTestCaseConfig(testCaseConfig))
}

func buildFunctionConfigFromTestCaseConfig(testCaseConfig testRepo) serverlessv1alpha2.FunctionSpec {
	return runtimes.
		NewGitopsFunctionBuilder(testCaseConfig.url, testCaseConfig.runtime).
		Reference(testCaseConfig.reference).
		BaseDir(testCaseConfig.baseDir).
		Auth(testCaseConfig.auth).
		Build()
}
