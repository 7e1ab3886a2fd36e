import { inputContextSchema, type ErrorType, type InputContext } from "./types";

/**
 * Failure wordings written by hand for the diagnosis' phrase families (issue 18), none copied from
 * bench/diagnosis-world.jsonl: a family must recognise the idea, not a corpus sentence. One place for two uses:
 * the unit cases of phrase-families.test.ts (each must be diagnosed as its label) and training cases of the
 * lexical model (scripts/diagnosis-lexical.ts): varied wordings of each type across products, what a fallback
 * for wordings nobody has seen needs. docs/diagnosis-benchmark.md tells how each group was written.
 */
export interface HandWording {
  label: ErrorType;
  /** What the wording is an instance of (the unit case's title). */
  name: string;
  input: InputContext;
}

function failure(tool: string, error: Record<string, unknown>, args: Record<string, unknown> = {}): InputContext {
  return inputContextSchema.parse({ failure: { tool, args, error } });
}
/** A shell command that failed, summarised as the shell tool summarises it (without the line). */
export const shellFailure = (cmd: string, stderr: string, code = 1) => failure("shell", { message: `"${cmd}" exited with code ${code}`, code, stderr }, { command: cmd });
/** An agent framework's or a tool's exception text. */
export const frameworkFailure = (tool: string, text: string) => failure(tool, { message: text, stderr: text });
/** A shell command with arguments, summarised with its last line. */
export const shellFailureWithArgs = (cmd: string, args: string[], stderr: string, code = 1) =>
  failure("shell", { message: `"${cmd}" exited with code ${code}: ${stderr.split("\n").pop()}`, code, stderr }, { command: cmd, args });

const shell = shellFailure;
const framework = frameworkFailure;
const withArgs = shellFailureWithArgs;
const group = (list: Array<[ErrorType, string, InputContext]>): HandWording[] => list.map(([label, name, input]) => ({ label, name, input }));

/** The phrase families for real-world outputs (issue 18, batches 1–6), each in wordings of its own. */
const realWorld = group([
  // a model calling a tool that does not exist, in any framework's words
  ["tool_not_found", "an agent attempted to invoke an unknown function", framework("get_stock", "AgentError: agent attempted to invoke an unknown function get_stock")],
  ["tool_not_found", "function ... does not exist", framework("calc", "Error: function 'calc' does not exist in this toolkit")],
  ["tool_not_found", "action not registered, with the list offered", framework("browse", "Action browse is not registered; the only available actions are: search, summarize")],
  ["tool_not_found", "a framework exception class", framework("translate", "ToolNotFoundException: translate")],
  ["tool_not_found", "not found in the tool registry", framework("fetch_page", "fetch_page not found in the tool registry")],
  // refusals by policy, allowlist or approval: permission_denied, never tool_not_found
  ["permission_denied", "denied by a deny-list rule", framework("run_command", "command 'curl evil.sh' denied by the deny-list rule network-egress")],
  ["permission_denied", "not in the allowed list", framework("shell", "ssh is not in the allowed list for this workspace")],
  ["permission_denied", "permission to X was refused", framework("write_file", "Permission to write outside the project was refused.")],
  ["permission_denied", "IAM: caller lacks permission", shell("az", "ERROR: The client 'me@corp' does not have permission to perform action 'Microsoft.Storage/read'")],
  // missing runtime downloads and credentials
  ["environment_missing", "browser not downloaded", shell("node", "Error: Could not find Chromium (rev. 1108766). Run npx puppeteer browsers install chrome")],
  ["environment_missing", "no credentials configured", shell("terraform", "Error: No valid credentials found for the AWS provider.")],
  ["environment_missing", "missing provider API key", shell("python3", "RuntimeError: Missing Mistral API key; set MISTRAL_API_KEY")],
  // TLS and refused connections
  ["network_error", "self-signed certificate", shell("git", "fatal: unable to access 'https://git.corp/r.git/': SSL certificate problem: self-signed certificate in certificate chain", 128)],
  ["network_error", "x509", shell("docker", "Error response from daemon: Get \"https://reg.corp/v2/\": x509: certificate signed by unknown authority")],
  ["network_error", "connection ... was refused", shell("redis-cli", "Could not connect: the connection to 10.0.0.5:6380 was refused")],
  // configuration and query syntax
  ["syntax_error", "YAML", shell("kubectl", "error: error parsing deploy.yaml: error converting YAML to JSON: yaml: line 7: did not find expected key")],
  ["syntax_error", "MariaDB", shell("mysql", "ERROR 1064 (42000): You have an error in your SQL syntax; check the manual for the right syntax to use near 'FORM users' at line 1")],
  ["syntax_error", "HCL", shell("terraform", "Error: Missing item separator\n\n  on vars.tf line 3:\n\nExpected a comma to mark the beginning of the next item.")],
  // time limits
  ["timeout", "ms timeout exceeded", shell("npx", "Error: Timeout of 15000 ms exceeded while waiting for selector")],
  ["timeout", "runner execution time", framework("ci_job", "The build exceeded the maximum run time of 60 minutes and was cancelled.")],
  // quota
  ["rate_limited", "resources exhausted", framework("llm", "Error 429: Resources exhausted for this project; try later")],
  // a program the command runs is missing
  ["command_not_found", "compiler not found", shell("make", "error: compiler `clang` not found", 2)],
  ["command_not_found", "sh reports a missing tool from a script", shell("./bootstrap", "./bootstrap: 12: ./bootstrap: libtoolize: not found")],
  // a package name apt does not know
  ["invalid_arguments", "apt unknown package", shell("apt-get", "E: Unable to locate package pyhton3", 100)],
  // batch 2 families (issue 18): each in wordings of its own
  ["tool_not_found", "a runner's task does not exist", shell("invoke", "No task named 'deploy-prod' found. Run `invoke --list` to see tasks.")],
  ["tool_not_found", "a package script does not exist", shell("pnpm", " ERR_PNPM_NO_SCRIPT  Missing script: lint:fix")],
  ["tool_not_found", "a build target not found in the project", shell("./gradlew", "Task 'publishRelease' not found in project ':app'.")],
  ["tool_not_found", "a lookup in the tool table failed", framework("lookup_weather", "Traceback (most recent call last):\n  File \"agent.py\", line 40, in step\n    fn = self.functions_by_name[call.name]\nKeyError: 'lookup_weather'")],
  ["environment_missing", "a shared library is missing", shell("ffmpeg", "ffmpeg: error while loading shared libraries: libavdevice.so.60: cannot open shared object file: No such file or directory", 127)],
  ["environment_missing", "macOS dyld cannot load a library", shell("psql", "dyld[4411]: Library not loaded: /opt/homebrew/opt/libpq/lib/libpq.5.dylib", 134)],
  ["environment_missing", "a generated client never generated", shell("node", "Error: the ORM client did not initialize yet. Please run \"orm generate\" first.")],
  ["environment_missing", "never logged in", shell("gh", "You are not logged into any GitHub hosts. To log in, run: gh auth login", 4)],
  ["environment_missing", "a named runtime version is not installed", shell("nodenv", "nodenv: version `18.17.0' is not installed (set by /app/.node-version)")],
  ["permission_denied", "a database user not authorized", shell("mongosh", "MongoServerError: not authorized on reports to execute command { find: \"daily\" }")],
  ["permission_denied", "an ACL with no permissions to run a command", shell("valkey-cli", "(error) NOPERM User worker has no permissions to run the 'flushall' command")],
  ["permission_denied", "no access to a cloud resource", shell("python3", "botocore.exceptions.ClientError: An error occurred (AccessDeniedException): You don't have access to the requested endpoint.")],
  ["permission_denied", "an agent tool's own check blocked it", framework("Read", "Read of /etc/shadow was blocked by the session's file access rules")],
  ["invalid_arguments", "a parameter fails validation", shell("aws", "Parameter validation failed:\nInvalid type for parameter MaxKeys, value: abc, type: <class 'str'>")],
  ["invalid_arguments", "no such package version", shell("yarn", "error Couldn't find any versions for \"left-pad\" that matches \"^9.0.0\"\nerror No versions available")],
  ["timeout", "a database statement timeout", shell("psql", "ERROR:  canceling statement due to lock timeout")],
  ["timeout", "a dial i/o timeout", shell("terraform", "Error: Get \"https://registry.terraform.io/.well-known/terraform.json\": dial tcp 104.16.0.1:443: i/o timeout")],
  ["timeout", "a job took longer than its limit", shell("buildkite-agent", "Job took longer than its 20 minute time limit and was cancelled")],
  ["output_too_large", "a stated byte limit", shell("kubectl", "The ConfigMap \"big\" is invalid: data: Too long: must have at most 1048576 bytes")],
  ["output_too_large", "a packet too large", shell("mysqldump", "mysqldump: Error 2020: Got packet bigger than 'max_allowed_packet' bytes; the packet is too large")],
  ["rate_limited", "a tokens-per-minute limit with a 429", framework("llm", "Error code: 429 - Too many tokens per minute, please wait before retrying.")],
  ["network_error", "a browser cannot resolve a host", framework("browser_open", "page.goto: net::ERR_NAME_NOT_RESOLVED at https://intranet.example/")],
  ["network_error", "a database server cannot be reached", shell("migrate", "error: can't reach database server at db.internal:5432")],
  ["network_error", "a host name cannot be translated", shell("psql", "psql: error: could not translate host name \"pg-primary\" to address: Temporary failure")],
  ["network_error", "server certificate verification failed", shell("git", "fatal: unable to access 'https://git.example/repo.git/': server certificate verification failed. CAfile: /etc/ssl/certs/ca.pem CRLfile: none", 128)],
  ["syntax_error", "a grammar's mismatched input", shell("cqlsh", "SyntaxException: line 1:14 mismatched input 'FORM' expecting K_FROM")],
  ["syntax_error", "a shell parser error", shell("pwsh", "ParserError: Missing closing '}' in statement block or type definition.")],
  // batch 3 families (issue 18), in wordings of their own
  ["tool_not_found", "a console app without that command", shell("php", "There are no commands defined in the \"queue\" namespace. Did you mean this? queue:work")],
  ["tool_not_found", "a build lifecycle without that phase", shell("mvn", "[ERROR] Unknown lifecycle phase \"deploy-all\". You must specify a valid lifecycle phase or a goal")],
  ["tool_not_found", "configuration management without that resource type", shell("puppet", "Error: Evaluation Error: Unknown resource type: 'nginx_vhost'")],
  ["tool_not_found", "a pipeline task not installed", shell("az", "A task is missing. The pipeline references a task called 'SonarQubePrepare'.")],
  ["command_not_found", "a JVM cannot start a program", framework("ProcessBuilder.start", "java.io.IOException: Cannot run program \"python3\": error=2, No such file or directory")],
  ["command_not_found", "a service's executable is missing", shell("systemctl", "worker.service: Failed at step EXEC spawning /opt/worker/bin/run: No such file or directory\nMain process exited, code=exited, status=203/EXEC", 3)],
  ["permission_denied", "missing permissions on a chat API", framework("channel.delete", "DiscordAPIError[50013]: Missing Permissions")],
  ["permission_denied", "an API says the token is not valid, as a code", framework("chat.postMessage", "The server responded with: {\"ok\": false, \"error\": \"not_authed\"}")],
  ["rate_limited", "an API's rate limit as a code", framework("files.upload", "The server responded with: {'ok': False, 'error': 'ratelimited'}")],
  ["timeout", "a future that did not complete", framework("fetchProfile", "TimeoutException after 0:00:30.000000: Future not completed")],
  ["timeout", "an elapsed deadline", shell("cargo", "Error: request failed: deadline has elapsed")],
  ["timeout", "a pipeline that did not finish in time", shell("tkn", "TaskRun \"build-x7\" failed to finish within \"10m0s\"")],
  ["output_too_large", "a message larger than the maximum", shell("grpcurl", "ERROR: Code: ResourceExhausted Message: grpc: received message larger than max (9000000 vs. 4194304)")],
  ["output_too_large", "a result limit exceeded", shell("clickhouse-client", "DB::Exception: Limit for rows to read exceeded, max rows: 1000000")],
  ["output_too_large", "an API's too-long code", framework("chat.update", "The server responded with: {'ok': False, 'error': 'text_too_long'}")],
  ["network_error", "a connection that could not be established", shell("kafka-console-consumer.sh", "WARN Connection to node 1 (broker-1/10.0.0.7:9092) could not be established. Broker may not be available.")],
  ["environment_missing", "no matching toolchain installed", shell("./gradlew", "> No matching toolchains found for requested specification: {languageVersion=21}")],
  ["environment_missing", "an SDK client with no region configured", shell("python3", "botocore.exceptions.NoRegionError: You must specify a region.")],
  ["environment_missing", "an app never initialised", framework("getAuth", "FirebaseError: No Firebase App '[DEFAULT]' has been created - call initializeApp() first")],
  ["invalid_arguments", "an option the program does not recognise", shell("kafka-topics.sh", "Exception in thread \"main\" joptsimple.UnrecognizedOptionException: broker-list is not a recognized option")],
  ["invalid_arguments", "a package version that does not exist", shell("dotnet", "error NU1102: Unable to find package Serilog with version (>= 99.0.0)")],
  // batch 4 families (wordings written here)
  ["tool_not_found", "the model's action text is not a valid tool", framework("lookup", "Observation: Search the web for pricing is not a valid tool, try one of [lookup, calculator].")],
  ["command_not_found", "a driver program that must be on PATH", shell("python3", "Error: 'geckodriver' needs to be on your PATH to start Firefox")],
  ["invalid_arguments", "the named container does not exist", shell("docker", "Error response from daemon: No such container: api-worker-2")],
  ["invalid_arguments", "the named volume does not exist", shell("docker", "Error: No such volume: pgdata_old")],
  ["timeout", "Timeout Nms exceeded", framework("browser", "locator.click: Timeout 15000ms exceeded while waiting for the button")],
  ["syntax_error", "YAML bad indentation", shell("node", "YAMLException: bad indentation of a sequence entry (12:5)")],
  ["syntax_error", "YAML parse exception", shell("java", "YAML parse exception at line 4, column 2: expected a block end")],
  // a runner's missing subcommand is tool_not_found (the labelling decision of 2026-11-27), whatever the CLI's words
  ["tool_not_found", "git: not a git command", shell("git", "git: 'stash-all' is not a git command. See 'git --help'.")],
  ["tool_not_found", "docker: a plugin subcommand not installed", shell("docker", "docker: 'buildx' is not a docker command.\nSee 'docker --help'")],
  ["tool_not_found", "cargo: no such command", shell("cargo", "error: no such command: `watch`\n\n\tView all installed commands with `cargo --list`", 101)],
  ["tool_not_found", "click: No such command", shell("flask", "Usage: flask [OPTIONS] COMMAND [ARGS]...\nError: No such command 'migrate'.", 2)],
  ["tool_not_found", "cobra: unknown command for the CLI", shell("kubectl", "error: unknown command \"rollout-status\" for \"kubectl\"\n\nDid you mean this?\n\trollout")],
  ["tool_not_found", "clap: unrecognized subcommand", shell("rustup", "error: unrecognized subcommand 'toolchains'", 2)],
  ["tool_not_found", "az: not in the command group", shell("az", "ERROR: 'containerapp' is misspelled or not recognized by the system. 'containerapp' is not in the 'az' command group.", 2)],
  ["tool_not_found", "argparse: invalid choice for the command slot", shell("aws", "usage: aws [options] <command> <subcommand> [parameters]\naws: error: argument operation: Invalid choice, valid choices are:\n\nget-object | put-object", 2)],
  ["tool_not_found", "gcloud: invalid choice of a command group", shell("gcloud", "ERROR: (gcloud) Invalid choice: 'run-jobs'.\nMaybe you meant:\n  gcloud run jobs", 2)],
  ["invalid_arguments", "an unknown command-line option stays an argument", shell("node", "node: unknown command-line option: --experimental-foo", 9)],
  ["invalid_arguments", "an invalid choice for an option stays an argument", shell("aws", "aws: error: argument --output: Invalid choice, valid choices are: json | text | table", 2)],
  ["invalid_arguments", "a named argument is invalid", shell("terraform", "Error: the argument \"region\" is invalid: expected one of us-east-1, eu-west-1")],
  // a package runner's exec mode that finds no program is a missing binary
  ["command_not_found", "pnpm exec: Command not found", shell("pnpm exec vitest run", " ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL  Command \"vitest\" not found")],
  ["command_not_found", "npx cannot determine what to run", shell("npx", "npm error could not determine executable to run")],
  ["command_not_found", "yarn: no binary named", shell("yarn", "Usage Error: Couldn't find a binary named \"tsc\"")],
  ["tool_not_found", "a runner's own command (not exec) stays a missing task", shell("artisan", "Error: Command \"queue:restart-all\" not found")],
  // generic "could not find / not found" lines: the missing thing decides
  ["command_not_found", "a CI runner cannot locate an executable", shell("node", "Error: Unable to locate executable file: pnpm. Please verify either the file path exists or the file can be found within a directory specified by the PATH environment variable.")],
  ["command_not_found", "a build cannot find its compiler", shell("cmake", "CMake Error: Could not find the Fortran compiler. Set CMAKE_Fortran_COMPILER.")],
  ["environment_missing", "ld cannot find a library", shell("cc", "/usr/bin/ld: cannot find -lpq\ncollect2: error: ld returned 1 exit status")],
  ["environment_missing", "a build cannot find an SDK", shell("./gradlew", "SDK location not found. Could not find the Android SDK; define ANDROID_HOME.")],
  ["environment_missing", "a driver binary is missing", shell("python3", "selenium.common.exceptions.NoSuchDriverException: Message: Unable to locate the chromedriver")],
  ["environment_missing", "a shared library at the top, a missing output file as its consequence", shell("python3", "./bin/aligner: error while loading shared libraries: libhts.so.3: cannot open shared object file: No such file or directory\nTraceback (most recent call last):\n  File \"run.py\", line 9, in <module>\nFileNotFoundError: [Errno 2] No such file or directory: 'out/aligned.bam'")],
  // codes quoted in response bodies and exception dicts are read
  ["rate_limited", "a gRPC status in a JSON body", framework("generate", "{\"error\": {\"code\": 400, \"message\": \"Please retry later.\", \"status\": \"RESOURCE_EXHAUSTED\"}}")],
  ["rate_limited", "an AWS throttling code", shell("aws", "An error occurred: {\"__type\":\"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException\",\"message\":\"Rate of requests exceeds the allowed throughput.\"}", 254)],
  ["permission_denied", "an AWS expired token code", framework("s3.put_object", "botocore ClientError: {'Error': {'Code': 'ExpiredToken', 'Message': 'The provided token has expired.'}}")],
  ["timeout", "a gRPC deadline status", framework("rpc", "{\"code\": 4, \"status\": \"DEADLINE_EXCEEDED\", \"message\": \"the call did not finish\"}")],
  ["output_too_large", "a stated size limit beats the 400 told three ways", framework("generate", "{\"error\": {\"code\": 400, \"message\": \"The request body exceeds the maximum size of 20 MB.\", \"reason\": \"badRequest\", \"status\": \"INVALID_ARGUMENT\"}}")],
  ["syntax_error", "a YAML parser names the punctuation it expected", shell("kubectl", "error: yaml: line 4: did not find expected '-' indicator")],
  // bash echoes the line it could not parse; a count of errors does not decide
  ["syntax_error", "bash's echo of the unparsable line", shell("bash", "deploy.sh: line 31: `  fi fi'", 2)],
  ["syntax_error", "a schema error above its count line", shell("npx", "Error: Schema parse failed\nerror: This line is not a valid field or attribute definition.\n  -->  schema.prisma:12\n\nValidation Error Count: 1")],
  // batch 5 families (wordings written here, not taken from the corpus)
  ["tool_not_found", "a namespaced tool name that does not exist", framework("functions.web_search", "ToolError: function functions.web_search does not exist in this agent")],
  ["tool_not_found", "a tool the agent does not recognise", framework("summarise_v2", "Error: the tool 'summarise_v2' is not recognized by this agent")],
  ["tool_not_found", "nothing registered to run the named function", framework("get_weather", "IllegalStateException: no handler registered for function get_weather")],
  ["tool_not_found", "a runner's target cannot be found", shell("invoke", "The target 'publish-docs' cannot be found in this build file.")],
  ["tool_not_found", "a runner command that is not available", shell("hatch", "Looks like you tried to run a Hatch command that isn't available. Install the plugin that provides it.")],
  ["tool_not_found", "a provider without that resource type", shell("tofu", "Error: Invalid resource type\n\nThe provider hashicorp/google does not have a resource type named \"google_storage_bucket_v2\".")],
  ["tool_not_found", "a CI action that cannot be resolved", framework("setup-tool", "Error: Unable to resolve action `acme/setup-tool@v9`, unable to find version `v9`")],
  ["tool_not_found", "a local CI action not checked out", framework("build", "Error: can't find the local action under ./ci/build; run the checkout step first")],
  ["command_not_found", "the shell itself has no such program", shell("nvm", "fish: Unknown command: nvm", 127)],
  ["command_not_found", "a container runtime cannot start its program", shell("docker", "docker: Error response from daemon: failed to create task for container: exec: \"/usr/local/bin/start.sh\": stat /usr/local/bin/start.sh: no such file or directory: unknown.", 127)],
  ["command_not_found", "an entrypoint missing in the image", shell("kubectl", "exec /app/run: no such file or directory")],
  ["environment_missing", "pytest's E-prefixed missing module is a module, not a runner's", shell("pytest", "E   ModuleNotFoundError: No module named 'tomli'")],
  ["environment_missing", "macOS developer tools not installed", shell("make", "xcode-select: note: no developer tools were found at '/Applications/Xcode.app', requesting install.")],
  ["environment_missing", "a build that needs the command line tools", shell("gem", "ERROR: Failed to build gem native extension. This requires the Xcode Command Line Tools.")],
  ["invalid_arguments", "an option's value the program does not recognise", shell("mysqldump", "mysqldump: encoding 'utf9' is not recognized")],
  ["invalid_arguments", "an invalid typed value for an option", shell("pg_dump", "pg_dump: error: invalid boolean value \"maybe\" for connection option \"sslcompression\"")],
  ["output_too_large", "a record larger than a configured max", framework("publish", "RecordTooLarge: the record is larger than max.message.bytes")],
  ["output_too_large", "exceeds a named upload size limit", shell("gh", "upload failed: asset exceeds the release's upload size limit of 2 GiB")],
  ["output_too_large", "the argument list is too long for exec", shell("cp", "/bin/cp: Argument list too long")],
  ["output_too_large", "a Windows command line too long", framework("spawn", "The command line is too long.")],
  ["environment_missing", "no compiler in the environment (a JRE, not a JDK)", shell("./mvnw", "[ERROR] No compiler is available in this environment: you appear to run a JRE rather than a JDK")],
  ["syntax_error", "a parser expecting what must follow", shell("terraform", "Error: Invalid reference\n\nA reference to a module must be followed by at least one attribute access.")],
  ["permission_denied", "botocore's capitalised error code", framework("ec2.run_instances", "ClientError: {'Error': {'Code': 'UnauthorizedOperation', 'Message': 'You are not authorized to perform this operation.'}}")],
  // batch 6 families (wordings written here, not taken from the corpus)
  ["tool_not_found", "nothing registered under the name", framework("fetch_url", "LookupError: no function registered under the name 'fetch_url'")],
  ["tool_not_found", "a name not among the tools offered", framework("lookup", "The model asked for 'lookup', which is not one of the provided tools")],
  ["tool_not_found", "a call to a tool absent from the request's tool list", framework("summarise", "400: the assistant tried to use tool 'summarise' that was not in payload.tools")],
  ["tool_not_found", "a tool router with no handler for the call", framework("grep", "router: unsupported call: grep_files")],
  ["invalid_arguments", "a schema validator's wrong type", framework("create_issue", "1 validation error: title: Expected string, received number")],
  ["invalid_arguments", "a JSON Schema type mismatch", framework("set_light", "arguments did not match schema: /brightness expected integer, but got string")],
  ["invalid_arguments", "cobra's required flag", shell("hugo", "Error: required flag(s) \"name\" not set")],
  ["invalid_arguments", "cobra's argument count", shell("kubectl", "error: accepts 1 arg(s), received 0")],
  ["invalid_arguments", "an unknown shorthand flag", shell("kubectl", "Error: unknown shorthand flag: 'z' in -z")],
  ["invalid_arguments", "an option expecting one argument", shell("gcloud", "ERROR: (gcloud.compute.instances.create) argument --zone: expected one argument", 2)],
  ["command_not_found", "cmd's missing program in French", shell("cmd", "'python' n'est pas reconnu en tant que commande interne\nou externe, un programme exécutable ou un fichier de commandes.")],
  ["command_not_found", "cmd's missing program in Spanish", shell("cmd", "\"node\" no se reconoce como un comando interno o externo,\nprograma o archivo por lotes ejecutable.")],
  ["command_not_found", "a child process whose bare program name is missing", shell("python3", "FileNotFoundError: [Errno 2] No such file or directory: 'pandoc'")],
  ["environment_missing", "no GPU driver", shell("python3", "RuntimeError: Found no AMD driver on your system.")],
  ["environment_missing", "the GPU driver cannot be reached", shell("nvidia-smi", "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.")],
  ["environment_missing", "no CUDA device available", shell("python3", "RuntimeError: No CUDA GPUs are available")],
  ["environment_missing", "a credential chain that found nothing", shell("java", "Failed to load credentials from any provider in the chain")],
  ["environment_missing", "no credential sources", shell("terraform", "Error: No valid credential sources found")],
  ["environment_missing", "git has no credentials to prompt for", shell("git", "fatal: could not read Password for 'https://git.example.org': No such device or address", 128)],
  ["environment_missing", "a key needed to use a service", framework("search", "Error: You need a SerpAPI key to use this tool")],
  ["environment_missing", "a setting named like a variable, not found", shell("node", "Error: ANTHROPIC_API_KEY not found in the environment")],
  ["environment_missing", "no runtime present", shell("java", "No Java runtime present, requesting install.")],
  ["environment_missing", "a driver built for another browser version", shell("pytest", "SessionNotCreatedException: session not created: This version of GeckoDriver only supports Firefox version 115")],
  ["environment_missing", "a tool that requires Xcode", shell("xcodebuild", "xcode-select: error: tool 'xcodebuild' requires Xcode, but active developer directory '/Library/Developer/CommandLineTools' is a command line tools instance")],
  ["output_too_large", "nginx's too large body", framework("nginx", "[error] 12#12: *9 client intended to send too large body: 99999999 bytes")],
]);

/** Families written from batch 7's tuning half. */
const batch7 = group([
  // the lookup verb first, the tool word, then the name
  ["tool_not_found", "could not find function X in plugin Y", framework("Weather.Forecast", "Could not find function Forecast in plugin Weather")],
  ["tool_not_found", "failed to locate the requested action", framework("plan", "PlannerError: failed to locate the requested action 'email.send' in any loaded toolkit")],
  ["tool_not_found", "unable to resolve tool", framework("agent", "unable to resolve tool search_docs for this step")],
  ["tool_not_found", "cannot find referenced task", shell("argo", "workflow rejected: cannot find referenced task 'build-image' in template lib")],
  ["tool_not_found", "unsupported tool: name, behind an invalid_argument code", framework("EditNotebook", "[invalid_argument] unsupported tool: EditNotebook")],
  ["tool_not_found", "unregistered function: name", framework("lookup", "dispatch failed - unregistered function: lookup_user")],
  ["tool_not_found", "make has no such target", shell("make", "make: *** No rule to make target 'deploy'.  Stop.", 2)],
  // tool words that are about a tool's parameters: invalid_arguments
  ["invalid_arguments", "a tool's parameter not found in its config", framework("agent", "error: tool parameter query not found in tool config")],
  ["invalid_arguments", "an argument not among the tool's parameters", framework("search", "Failed to execute: argument limit is not in the tool's parameters")],
  ["invalid_arguments", "a field that must be defined when another is used", framework("converse", "ValidationException: The system field must be defined when using cachePoint blocks.")],
  ["invalid_arguments", "a value outside the accepted set", framework("format", "invalid params: unknown variant `yml`, expected one of `json`, `yaml`")],
  // missing configuration, credentials, SDKs, browsers, services
  ["environment_missing", "environment variables missing (plural, name list after)", shell("./server", "fatal: environment variables missing: DB_URL, SESSION_SECRET")],
  ["environment_missing", "default credentials not available", shell("node", "Error: Default credentials are not available; set up application default credentials first")],
  ["environment_missing", "no SDKs found", shell("dotnet", "No .NET SDKs were found.")],
  ["environment_missing", "no JDK installations detected", shell("gradle", "No Java toolchains were found matching the request")],
  ["environment_missing", "a browser binary that cannot be found", shell("java", "WebDriverException: Cannot find chrome binary")],
  ["environment_missing", "a service unit never installed", shell("systemctl", "Failed to enable unit: Unit file worker.service does not exist.")],
  ["environment_missing", "a .env file missing", shell("node", "[dotenv] missing .env file at /srv/app")],
  ["environment_missing", "the program's settings file not found (ENOENT on settings.json)", shell("node", "Error: ENOENT: no such file or directory, open '/srv/app/settings.json'")],
  ["environment_missing", "an install location variable that points nowhere", shell("gradle", "ERROR: JAVA_HOME is set to an invalid directory: /opt/jdk-missing")],
  ["environment_missing", "an SDK version that is not installed", shell("dotnet", "A compatible .NET SDK was not found. Requested SDK version: 8.0.100")],
  ["environment_missing", "no auth token configured", shell("deploy", "Error: no auth token found, run `deployctl login` or set DEPLOY_TOKEN")],
  ["environment_missing", "a config template that was never copied", shell("bot", "config.toml not found - copy config.example.toml to config.toml and fill it in")],
  // a tool named by a relative clause
  ["tool_not_found", "a call to a tool that does not exist (relative clause)", framework("agent", "The model attempted to call a tool which does not exist: fetch_page")],
  // programs that are not installed
  ["command_not_found", "X not found. Please install X", shell("transcribe", "RuntimeError: sox not found. Please install sox and retry.")],
  // sudo without a password
  ["permission_denied", "sudo needs a terminal for the password", shell("sudo", "sudo: a password is required")],
  ["permission_denied", "not in the sudoers file", shell("sudo", "deploy is not in the sudoers file.  This incident will be reported.")],
  // context size
  ["output_too_large", "request exceeds the context size", framework("llm", "400: prompt of 9000 tokens exceeds the model's context window of 8192 tokens")],
]);

/** Families written from batch 8's tuning half. */
const batch8 = group([
  // an approval or confirmation a policy or classifier requires: refused, not missing
  ["permission_denied", "a safety classifier requires approval for this action", framework("delete_branch", "The safety classifier requires approval for this action.")],
  ["permission_denied", "a command that requires human confirmation", framework("shell", "Blocked: this command requires human confirmation")],
  ["permission_denied", "a guardrail requires operator approval", framework("wire_transfer", "guardrail payments-high-value requires operator approval before the call can run")],
  // not allowed in a scope, with the rule that excludes it
  ["permission_denied", "a plugin not allowed in a repository because of a rule", framework("ci", "Plugin acme/lint@2 is not allowed in team/site because only verified plugins may run.")],
  ["permission_denied", "images not allowed in a namespace, the rule in the next sentence", shell("kubectl", "Images from docker.io are not allowed in namespace prod. Images in this cluster must be signed.")],
  // an admission controller, policy or guard denied the request
  ["permission_denied", "a validating policy rejected the request", shell("kubectl", "Error: the validating policy 'no-latest-tag' rejected the request: image tag latest")],
  ["permission_denied", "a firewall refused the operation", framework("db_query", "egress firewall refused the operation to 10.1.2.3:5432")],
  // an option the parser was given but does not define
  ["invalid_arguments", "option given but not defined", shell("tool", "option given but not defined: --colour", 2)],
  ["invalid_arguments", "flag passed but never declared", shell("runner", "error: flag passed but never declared: -q")],
  // a word the parser did not expect where it was
  ["invalid_arguments", "got an argument which was not expected", shell("sync", "error: got argument 'mirror' which was not expected", 2)],
  ["invalid_arguments", "an option that isn't valid in this context", shell("pack", "error: option '--fast' isn't valid in this context")],
  // a request field named by its path that is empty
  ["invalid_arguments", "the value at a dotted path is empty", framework("chat", "ValidationError: the value at body.items[0].name is empty")],
  ["invalid_arguments", "a field path that must not be empty", framework("chat", "400 Bad Request: request.tools[2].function.description must not be empty")],
]);

/** Probes of the rules written after batch 8 to test whether a family carries the idea. */
const probingRules = group([
  // a person or an administrator refused the tool or the call: it exists, it is not allowed
  ["permission_denied", "a tool disabled by the administrator", framework("shell", "The tool 'shell' is disabled by your administrator")],
  ["permission_denied", "disabled by the organization's admin", framework("web_fetch", "This tool has been disabled by your organization's admin")],
  ["permission_denied", "the user declined to run the tool", framework("delete_db", "The user declined to run the tool delete_db")],
  ["permission_denied", "declined by the operator", framework("bash", "Tool execution was declined by the operator")],
  ["permission_denied", "the reviewer vetoed the call", framework("deploy", "Reviewer vetoed the deploy call; nothing was run")],
  ["permission_denied", "blocked in read-only mode", framework("write_file", "write_file is blocked in read-only mode")],
  ["permission_denied", "not allowed in plan mode", framework("edit", "Editing files is not allowed in plan mode")],
  // the name is not one of the agent's tools, said without "valid"
  ["tool_not_found", "not a tool of this agent", framework("open_url", "LookupError: open_url is not a tool of this agent")],
  ["tool_not_found", "not a tool in the toolkit", framework("summarise", "summarise is not a tool in the toolkit; pick one of search, read")],
  // a runner's file of tasks has no task of that name
  ["tool_not_found", "a recipe file that does not contain the recipe", shell("just", "error: Justfile does not contain recipe `deploy`.")],
  ["tool_not_found", "a build file that defines no such target", shell("ninja", "ninja: error: build.ninja defines no target 'docs'")],
  // a console application's command, quoted, does not exist
  ["tool_not_found", "the command does not exist", shell("artisan-like", 'The command "deplyo" does not exist.')],
  // an adjective of absence before a provider's tool-call word and the name after a colon
  ["tool_not_found", "unrecognized tool_use name", framework("calc", "Unrecognized tool_use name: calc")],
  ["tool_not_found", "unknown function_call name", framework("calc", "unknown function_call name = calc")],
  // an API object of a named kind is not there: what the call acts on, a wrong argument
  ["invalid_arguments", "a Kubernetes object not found", shell("kubectl", 'Error from server (NotFound): pods "web-0" not found')],
  ["invalid_arguments", "a named release not found", shell("helm", "Error: release 'api-canary' not found")],
]);

/** Families written from batch 9's tuning half, in other products' words. */
const batch9 = group([
  // argparse's invalid choice in the command slot, whatever the positional is called; an option's value is an argument
  ["tool_not_found", "argument COMMAND: invalid choice", withArgs("dvc", ["pul"], "dvc: error: argument COMMAND: invalid choice: 'pul' (choose from 'add', 'pull')")],
  ["tool_not_found", "argument sub_command: invalid choice", withArgs("backupctl", ["restor"], "backupctl: error: argument sub_command: invalid choice: 'restor' (choose from 'backup', 'restore')")],
  ["tool_not_found", "argument subparser_name: invalid choice", withArgs("docsx", ["serv"], "docsx: error: argument subparser_name: invalid choice: 'serv' (choose from 'build', 'serve')")],
  ["invalid_arguments", "argument --format: invalid choice", withArgs("reporter", ["--format", "yml"], "reporter: error: argument --format/-f: invalid choice: 'yml' (choose from 'json', 'csv')")],
  ["invalid_arguments", "argument --action-mode: invalid choice", withArgs("imgconv", ["--action-mode", "zip"], "imgconv: error: argument --action-mode: invalid choice: 'zip' (choose from 'copy', 'move')")],
  // a model's tool call that does not parse
  ["syntax_error", "MALFORMED_FUNCTION_CALL", framework("model", "finishReason: MALFORMED_FUNCTION_CALL")],
  ["syntax_error", "a malformed tool call", framework("agent", "The model produced a malformed tool call; generation stopped.")],
  ["syntax_error", "a tool call that could not be parsed", framework("agent", "the tool call could not be parsed: expected a JSON object")],
  ["syntax_error", "a truncated tool_use block", framework("model", "The assistant returned a truncated tool_use block")],
  ["invalid_arguments", "a function call with a wrong argument parsed", framework("get_weather", "invalid arguments for function call get_weather: 'city' is required")],
  // a well-known program is not installed: command_not_found; a library or SDK stays environment_missing
  ["command_not_found", "git is not installed", shell("helmish", "Error: git is not installed")],
  ["command_not_found", "ffmpeg is not installed", shell("mediaproc", "RuntimeError: ffmpeg is not installed")],
  ["command_not_found", "unable to find the git executable", shell("clone", "fatal: unable to find git executable")],
  ["command_not_found", "kubectl not on PATH", shell("deploy", "kubectl is not installed or not on PATH")],
  ["environment_missing", "a library not installed", shell("pip", "ERROR: libgit2 is not installed")],
  ["environment_missing", "an SDK not installed", shell("dotnet", "The .NET SDK is not installed")],
  // a schema's maximum length: a size limit; its minimum: an argument
  ["output_too_large", "expected maxLength, actual", framework("embed", "ValidationException: Malformed input request: #/input: expected maxLength: 8192, actual: 9100")],
  ["output_too_large", "must NOT have more than N characters", framework("api", "data/text must NOT have more than 4096 characters")],
  ["output_too_large", "should have at most N characters", framework("api", "String should have at most 1000 characters [type=string_too_long]")],
  ["invalid_arguments", "expected minLength, actual", framework("api", "expected minLength: 8, actual: 3")],
  ["invalid_arguments", "should have at least N characters", framework("api", "password: String should have at least 12 characters")],
  // a generation server's token budget
  ["output_too_large", "inputs tokens + max_new_tokens must be <= N", framework("tgi", "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000")],
  ["output_too_large", "prompt tokens + max_tokens must not exceed N", framework("vllm", "prompt tokens (9000) + max_tokens (1024) must not exceed 8192")],
  // a permission refusal in another language
  ["permission_denied", "German", framework("agent", "Berechtigung verweigert: Bash")],
  ["permission_denied", "Spanish", shell("cp", "cp: no se puede abrir '/root/x': Permiso denegado")],
  ["permission_denied", "Italian", shell("touch", "touch: impossibile creare '/x': Permesso negato")],
  ["permission_denied", "Russian", shell("cat", "cat: /etc/shadow: Отказано в доступе")],
  ["permission_denied", "Japanese", framework("cmd", "アクセスが拒否されました。")],
  // a server without the method (JSON-RPC -32601) or a tool requested that the agent does not offer
  ["tool_not_found", "MCP -32601 Method not found", framework("mcp", "McpError: MCP error -32601: Method not found")],
  ["tool_not_found", "the method does not exist", framework("rpc", "the method eth_foo does not exist/is not available")],
  ["tool_not_found", "Invalid tool requested", framework("agent", "Invalid tool requested: web_browse")],
  ["invalid_arguments", "a tool name of the wrong form", framework("api", "invalid tool name: must match ^[a-zA-Z0-9_-]{1,64}$")],
  // a server configuration's unknown directive: a clean name's module is not built in; text that is no name is a syntax error
  ["environment_missing", "nginx: a module's directive", shell("nginx", 'nginx: [emerg] unknown directive "more_set_headers" in /etc/nginx/conf.d/h.conf:3')],
  ["environment_missing", "Caddy: unrecognized directive", shell("caddy", "Error: adapting config using caddyfile: /etc/caddy/Caddyfile:5: unrecognized directive: rate_limit")],
  ["environment_missing", "Apache: defined by a module not included", shell("apachectl", "AH00526: Syntax error on line 12 of /etc/httpd/conf.d/proxy.conf:\nInvalid command 'ProxyPass', perhaps misspelled or defined by a module not included in the server configuration")],
  ["syntax_error", "nginx: a PHP file included as configuration", shell("nginx", 'nginx: [emerg] unknown directive "<?php" in /etc/nginx/conf.d/index.conf:1')],
  ["syntax_error", "nginx: a brace glued to the name", shell("nginx", 'nginx: [emerg] unknown directive "server{" in /etc/nginx/sites-enabled/app:1')],
  ["syntax_error", "Apache: HTML as configuration", shell("apachectl", "Invalid command '<html>', perhaps misspelled or defined by a module not included in the server configuration")],
  // "the specified command or file was not found": the first argument decides
  ["invalid_arguments", "a runner given a file that does not exist", withArgs("dotnet", ["bin/Release/app.dll"], "Could not execute because the specified command or file was not found.\n  * You intended to execute a .NET program, but dotnet-bin/Release/app.dll does not exist.")],
  ["tool_not_found", "a runner given a verb it does not have", withArgs("dotnet", ["buidl"], "Could not execute because the specified command or file was not found.\n  * You misspelled a built-in dotnet command.")],
  // a version of a package that the repository does not have
  ["invalid_arguments", "Version x for y was not found", withArgs("apt-get", ["install"], "E: Version '1.0.0' for 'libfoo' was not found")],
  // a settings object read from the environment misses a required field: configuration never provided; a request's field is an argument
  ["environment_missing", "pydantic v2: a Settings class without its api key", framework("python3", "pydantic_core._pydantic_core.ValidationError: 1 validation error for Settings\nopenai_api_key\n  Field required [type=missing, input_value={}, input_type=dict]")],
  ["environment_missing", "pydantic v1: a token field of a config class", framework("python3", "pydantic.error_wrappers.ValidationError: 1 validation error for AppConfig\nanthropic_api_key\n  field required (type=value_error.missing)")],
  ["environment_missing", "a settings class without its database url", framework("python3", "1 validation error for Settings\ndatabase_url\n  Field required [type=missing, input_value={}, input_type=dict]")],
  ["invalid_arguments", "a request model without its name", framework("python3", "1 validation error for CreateUserRequest\nname\n  Field required [type=missing, input_value={'age': 3}, input_type=dict]")],
  ["invalid_arguments", "a tool's arguments without the query", framework("search", "1 validation error for SearchArgs\nquery\n  field required (type=value_error.missing)")],
]);

/** Probing the weak types, round 1: written before the rules it led to. */
const probeRound1 = group([
  // ---------------- environment_missing
  ["environment_missing", "a required variable named in a dotenv loader", shell("node", "Error: Missing required environment variable: STRIPE_SECRET_KEY")],
  ["environment_missing", "LangChain-style: did not find the key, add an environment variable", framework("ChatMistral", "ValueError: Did not find mistral_api_key, please add an environment variable `MISTRAL_API_KEY` which contains it, or pass `mistral_api_key` as a named parameter.")],
  ["environment_missing", "a variable that is empty", shell("deploy.sh", "error: DATABASE_URL is empty; export it before running migrations")],
  ["environment_missing", "Go config: required key missing value", shell("./server", "panic: required key SENTRY_DSN missing value")],
  ["environment_missing", "a variable not defined in the shell", shell("make", "Makefile:4: *** AWS_PROFILE is undefined. Stop.", 2)],
  ["environment_missing", "AWS named profile never configured", shell("aws", "The config profile (staging) could not be found", 255)],
  ["environment_missing", "ADC not found", shell("python3", "google.auth.exceptions.DefaultCredentialsError: Your default credentials were not found. To set up Application Default Credentials, see https://cloud.google.com/docs/authentication/external/set-up-adc")],
  ["environment_missing", "no token in the keyring", shell("gh", "error: no oauth token found for github.com; run gh auth login", 4)],
  ["environment_missing", "a service account key file that is not there", shell("terraform", "Error: error loading credentials: open /secrets/sa.json: no such file or directory\n\n  with provider[\"registry.terraform.io/hashicorp/google\"]")],
  ["environment_missing", "an SDK asking for an API key to be set", framework("Groq", "GroqError: The api_key client option must be set either by passing api_key to the client or by setting the GROQ_API_KEY environment variable")],
  ["environment_missing", "an agent framework without a key", framework("Agent", "UserError: No API key provided for provider 'openai'. Set OPENAI_API_KEY or configure a model provider.")],
  ["environment_missing", "kubectl with no current context", shell("kubectl", "error: current-context is not set")],
  ["environment_missing", "helm with no kubeconfig", shell("helm", "Error: Kubernetes cluster unreachable: invalid configuration: no configuration has been provided, try setting KUBERNETES_MASTER environment variable")],
  ["environment_missing", "a tool's own config file never created", shell("mytool", "Error: configuration file ~/.config/mytool/config.toml does not exist; run `mytool init` to create one")],
  ["environment_missing", "wrangler without a config", shell("wrangler", "✘ [ERROR] Missing entry-point: The entry-point should be specified via the command line or the `main` config field.\nCould not find a wrangler.toml file in this directory.")],
  ["environment_missing", "a Python project without pyproject", shell("poetry", "Poetry could not find a pyproject.toml file in /srv/app or its parents")],
  ["environment_missing", "pip requires an activated virtualenv", shell("pip", "ERROR: Could not find an activated virtualenv (required).", 3)],
  ["environment_missing", "uv finds no virtual environment", shell("uv", "error: No virtual environment found; run `uv venv` to create an environment, or pass `--system` to install into a non-virtual environment", 2)],
  ["environment_missing", "a script that needs an activated environment", shell("./train.sh", "ERROR: no virtual environment is active. Activate .venv first (source .venv/bin/activate).")],
  ["environment_missing", "conda environment not activated", shell("conda", "CondaError: Run 'conda init' before 'conda activate'")],
  ["environment_missing", "nvm: version not yet installed", shell("nvm", "N/A: version \"v20.11.0\" is not yet installed.\n\nYou need to run \"nvm install v20.11.0\" to install it before using it.", 3)],
  ["environment_missing", "rustup without a default toolchain", shell("cargo", "error: rustup could not choose a version of cargo to run, because one wasn't specified explicitly, and no default is configured.\nhelp: run 'rustup default stable' to download the latest stable release of Rust and set it as your default toolchain.")],
  ["environment_missing", "a .NET app without its runtime", shell("./api", "You must install or update .NET to run this application.\n\nApp: /srv/api/api\nArchitecture: x64\nFramework: 'Microsoft.AspNetCore.App', version '8.0.0' (x64)", 150)],
  ["environment_missing", "gradle without java", shell("./gradlew", "ERROR: JAVA_HOME is not set and no 'java' command could be found in your PATH.\n\nPlease set the JAVA_HOME variable in your environment to match the\nlocation of your Java installation.")],
  ["environment_missing", "Go toolchain download disabled", shell("go", "go: go.mod requires go >= 1.23 (running go 1.21.5; GOTOOLCHAIN=local)")],
  ["environment_missing", "a Python interpreter of the version pinned", shell("pipenv", "Warning: Python 3.12 was not found on your system...\nNeither 'pyenv' nor 'asdf' could be found to install Python.")],
  ["environment_missing", "Playwright browsers not installed", framework("browser_navigate", "browserType.launch: Executable doesn't exist at /home/ci/.cache/ms-playwright/webkit-2035/pw_run.sh\nLooks like Playwright was just installed or updated.")],
  ["environment_missing", "Selenium Manager cannot find Chrome", shell("python3", "selenium.common.exceptions.SessionNotCreatedException: Message: session not created: cannot find Chrome binary")],
  ["environment_missing", "Cypress without its binary", shell("npx", "The cypress npm package is installed, but the Cypress binary is missing.\n\nWe expected the binary to be installed here: /root/.cache/Cypress/13.6.0/Cypress/Cypress")],
  ["environment_missing", "Karma cannot start a browser", shell("ng", "ERROR [launcher]: No binary for ChromeHeadless browser on your platform.\n  Please, set \"CHROME_BIN\" env variable.")],
  ["environment_missing", "spaCy model not downloaded", shell("python3", "OSError: [E050] Can't find model 'en_core_web_sm'. It doesn't seem to be a Python package or a valid path to a data directory.")],
  ["environment_missing", "NLTK resource not downloaded", shell("python3", "LookupError: \n**********************************************************************\n  Resource punkt not found.\n  Please use the NLTK Downloader to obtain the resource:\n\n  >>> import nltk\n  >>> nltk.download('punkt')")],
  ["environment_missing", "Hugging Face offline without a cached model", shell("python3", "huggingface_hub.errors.LocalEntryNotFoundError: Cannot find the requested files in the disk cache and outgoing traffic has been disabled. To enable model look-ups and downloads online, set 'local_files_only' to False.")],
  ["environment_missing", "weights not downloaded", shell("python3", "RuntimeError: Model weights not found at checkpoints/sam_vit_b.pth. Download them first with scripts/download_weights.sh")],
  ["environment_missing", "whisper.cpp model missing", shell("./main", "whisper_init_from_file_with_params_no_state: failed to open 'models/ggml-base.en.bin'\nerror: failed to initialize whisper context\nDownload a model with ./models/download-ggml-model.sh base.en")],
  ["environment_missing", "LM Studio model not loaded", framework("llm", "Error: No models loaded. Please load a model in the developer page or use the `lms load` command.")],
  ["environment_missing", "a JNI library not on the library path", shell("java", "Exception in thread \"main\" java.lang.UnsatisfiedLinkError: no opencv_java490 in java.library.path: /usr/java/packages/lib")],
  ["environment_missing", "a DLL that cannot be loaded", shell("dotnet", "System.DllNotFoundException: Unable to load shared library 'libgdiplus' or one of its dependencies.")],
  ["environment_missing", "ctypes cannot find a library", shell("python3", "OSError: libportaudio.so.2: cannot open shared object file: No such file or directory")],
  ["environment_missing", "a Python extension built for a missing system library", shell("python3", "ImportError: libGL.so.1: cannot open shared object file: No such file or directory")],
  ["environment_missing", "CUDA runtime library missing", shell("python3", "Could not load dynamic library 'libcudart.so.12'; dlerror: libcudart.so.12: cannot open shared object file")],
  ["environment_missing", "pkg-config cannot find a package", shell("cargo", "Package openssl was not found in the pkg-config search path.\nPerhaps you should add the directory containing `openssl.pc'\nto the PKG_CONFIG_PATH environment variable", 101)],
  ["environment_missing", "Zephyr SDK not found by CMake", shell("west", "CMake Error at cmake/modules/FindZephyr-sdk.cmake:89 (find_package):\n  Could not find a package configuration file provided by \"Zephyr-sdk\"")],
  ["environment_missing", "ESP-IDF not exported", shell("idf.py", "ERROR: IDF_PATH is not set. Please run . $HOME/esp/esp-idf/export.sh first.")],
  ["environment_missing", "ROS 2 workspace not sourced", shell("ros2", "Package 'turtlebot3_gazebo' not found: \"package 'turtlebot3_gazebo' not found, searching: ['/opt/ros/humble']\"\nDid you source your workspace (source install/setup.bash)?")],
  // ---------------- tool_not_found
  ["tool_not_found", "a skill not registered with the kernel", framework("Summarize", "KernelException: Skill 'Summarize' is not registered with this kernel")],
  ["tool_not_found", "a capability the agent lacks", framework("browse", "AgentError: the agent has no capability named 'browse'")],
  ["tool_not_found", "called a tool the agent doesn't provide", framework("write_report", "InvalidToolCall: the model called `write_report`, which this agent doesn't provide")],
  ["tool_not_found", "no tool matches the name", framework("web-search", "Error: No tool matches the name 'web-search'")],
  ["tool_not_found", "not an enabled tool", framework("run_sql", "Tool call failed: 'run_sql' is not an enabled tool for this assistant")],
  ["tool_not_found", "a hallucinated tool call", framework("get_stock_price", "Hallucinated tool call: get_stock_price (no such entry in the tool schema)")],
  ["tool_not_found", "Semantic Kernel function not found in a plugin", framework("Writer-Summarize", "KernelFunction 'Summarize' not found in plugin 'Writer'")],
  ["tool_not_found", "MCP server: tool not found as -32602", framework("mcp", "McpError: MCP error -32602: Tool browser_clickk not found")],
  ["tool_not_found", "the model invoked a name nothing handles", framework("delete_file", "Function calling error: the model invoked `delete_file`, but no function by that name is registered")],
  ["tool_not_found", "tool_use block naming an undefined tool", framework("search", "tool_use block references tool 'search' which is not defined in tools")],
  ["tool_not_found", "an action the browser agent does not know", framework("scroll_to", "ActionError: unknown action 'scroll_to'; valid actions are click, type, navigate")],
  ["tool_not_found", "an MCP client finds no server offering the tool", framework("mcp", "Error: none of the connected MCP servers exposes a tool named \"jira_create_issue\"")],
  ["tool_not_found", "an agent runtime with no such function in its schema", framework("get_time", "FunctionNotAvailable: get_time is not part of the declared functions")],
  ["tool_not_found", "the tool the plan names was never loaded", framework("planner", "Plan step 3 uses tool 'sql_query', but that tool was never loaded into the toolbox")],
  ["tool_not_found", "a tool name mistyped by the model, suggestion offered", framework("serch", "No such function: serch. Did you mean: search?")],
  ["tool_not_found", "a robot skill server without the skill", framework("pick_place", "SkillServer: requested skill 'pick_and_place_v2' does not exist on this robot")],
  ["tool_not_found", "Bedrock: the model asked for a tool not in toolConfig", framework("converse", "The model returned a toolUse for 'lookup_order', which is not defined in toolConfig")],
  ["tool_not_found", "an assistant run requiring an unknown function", framework("assistant", "Run failed: required_action references function `get_invoice` that is not among this assistant's tools")],
  // refusals must stay permission_denied
  ["permission_denied", "a tool off the agent's allowlist", framework("Bash", "Tool 'Bash' is not in the allowed tools list for this session")],
  ["permission_denied", "a tool disallowed by settings", framework("WebFetch", "WebFetch was denied by your permission settings (deny rule WebFetch(*))")],
  ["permission_denied", "a function blocked by the sandbox policy", framework("exec", "exec: call blocked by sandbox policy 'no-network'")],
  ["permission_denied", "a human rejected the tool call", framework("send_email", "The human reviewer rejected this tool call")],
  // ---------------- command_not_found
  ["command_not_found", "bash: cannot execute: required file not found", shell("bash", "bash: /usr/local/bin/aws: cannot execute: required file not found", 127)],
  ["command_not_found", "bad interpreter", shell("./configure", "bash: ./configure: /bin/sh^M: bad interpreter: No such file or directory", 126)],
  ["command_not_found", "exec format error from a container", shell("docker", "exec /usr/local/bin/docker-entrypoint.sh: exec format error", 1)],
  ["command_not_found", "Python Exec format error", shell("python3", "OSError: [Errno 8] Exec format error: './bin/tool'")],
  ["command_not_found", "cannot execute binary file", shell("bash", "bash: ./arm-tool: cannot execute binary file: Exec format error", 126)],
  ["command_not_found", "PowerShell French", shell("pwsh", "node : Le terme «node» n'est pas reconnu comme nom d'applet de commande, fonction, fichier de script ou programme exécutable.")],
  ["command_not_found", "PowerShell Spanish", shell("pwsh", "El término 'node' no se reconoce como nombre de un cmdlet, función, archivo de script o programa ejecutable.")],
  ["command_not_found", "PowerShell German", shell("pwsh", "Die Benennung \"node\" wurde nicht als Name eines Cmdlet, einer Funktion, einer Skriptdatei oder eines ausführbaren Programms erkannt.")],
  ["command_not_found", "csh", shell("tcsh", "kubectl: Command not found.", 1)],
  ["command_not_found", "a Makefile recipe program missing", shell("make", "make: protoc: No such file or directory\nmake: *** [Makefile:12: gen] Error 127", 2)],
  ["command_not_found", "ENOENT spawning an MCP server", framework("mcp", "Error: spawn uvx ENOENT\n    at ChildProcess._handle.onexit (node:internal/child_process:284:19)")],
  ["command_not_found", "Go exec lookup in PATH", shell("go", "exec: \"protoc-gen-go\": executable file not found in $PATH")],
  ["command_not_found", "execa command not found", framework("runScript", "Error: Command failed with ENOENT: pnpm install\nspawn pnpm ENOENT")],
  ["command_not_found", "Rust std::process NotFound", shell("cargo", "Error: failed to spawn `wasm-opt`: No such file or directory (os error 2)")],
  ["command_not_found", "which finds nothing", shell("which", "which: no terraform in (/usr/local/bin:/usr/bin:/bin)")],
  ["command_not_found", "a CI step's program not installed", shell("bash", "/home/runner/work/_temp/abc.sh: line 2: yq: command not found", 127)],
  ["command_not_found", "an OCI runtime cannot find the entrypoint", shell("docker", "docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: exec: \"uvicorn\": executable file not found in $PATH: unknown.", 127)],
  ["command_not_found", "subprocess cannot find the program on Windows", shell("python", "FileNotFoundError: [WinError 2] The system cannot find the file specified\n  File \"C:\\Python312\\Lib\\subprocess.py\", line 1538, in _execute_child")],
  // a file the user named is a wrong argument, not a missing program
  ["invalid_arguments", "ruby given a script that does not exist", withArgs("ruby", ["setup.rb"], "ruby: No such file or directory -- setup.rb (LoadError)")],
  ["invalid_arguments", "node given a script that does not exist", withArgs("node", ["srv/index.js"], "Error: Cannot find module '/app/srv/index.js'")],
  // ---------------- invalid_arguments
  ["invalid_arguments", "clap: required arguments not provided", shell("mycli", "error: the following required arguments were not provided:\n  --region <REGION>\n\nUsage: mycli deploy --region <REGION>", 2)],
  ["invalid_arguments", "click: missing option", shell("flask", "Usage: flask run [OPTIONS]\nTry 'flask run --help' for help.\n\nError: Missing option '--port' / '-p'.", 2)],
  ["invalid_arguments", "commander: option argument missing", shell("node", "error: option '--out <dir>' argument missing")],
  ["invalid_arguments", "commander: too many arguments", shell("node", "error: too many arguments for 'deploy'. Expected 1 argument but got 2.")],
  ["invalid_arguments", "cp: missing destination operand", shell("cp", "cp: missing destination file operand after 'a.txt'\nTry 'cp --help' for more information.")],
  ["invalid_arguments", "curl: option is unknown", shell("curl", "curl: option --frobnicate: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information", 2)],
  ["invalid_arguments", "psql: invalid connection option", shell("psql", "psql: error: invalid connection option \"sslmod\"")],
  ["invalid_arguments", "pip: invalid requirement", shell("pip", "ERROR: Invalid requirement: 'requests=2.31': Expected end or semicolon (after name and no valid version specifier)")],
  ["invalid_arguments", "tar needs one of its modes", shell("tar", "tar: You must specify one of the '-Acdtrux', '--delete' or '--test-label' options\nTry 'tar --help' or 'tar --usage' for more information.", 2)],
  ["invalid_arguments", "OpenAI: a parameter out of range", framework("chat.completions", "Error code: 400 - {'error': {'message': \"Invalid value for 'temperature': expected a number between 0 and 2.\", 'type': 'invalid_request_error', 'param': 'temperature'}}")],
  ["invalid_arguments", "a tool argument of the wrong type", framework("resize_image", "ToolInputError: argument 'width' must be an integer, got '640px'")],
  ["invalid_arguments", "a required tool argument missing", framework("send_email", "Tool send_email called without required argument 'to'")],
  ["invalid_arguments", "an enum value the tool does not accept", framework("set_mode", "Invalid input for set_mode: 'turbo' is not one of ['eco', 'normal', 'sport']")],
  ["invalid_arguments", "a robot joint target outside its limits", framework("move_joint", "MoveItError: goal joint value 3.9 for 'elbow_joint' is outside the bounds [-3.14, 3.14]")],
  ["invalid_arguments", "a date that does not parse as an argument", shell("date", "date: invalid date ‘2024-13-01’")],
  ["invalid_arguments", "a gcloud flag value not allowed", shell("gcloud", "ERROR: (gcloud.run.deploy) argument --memory: Invalid value: '3X'", 2)],
  ["invalid_arguments", "mutually exclusive options", shell("mycli", "error: the argument '--json' cannot be used with '--yaml'", 2)],
  ["invalid_arguments", "argparse: unrecognized arguments", shell("python3", "usage: train.py [-h] [--epochs EPOCHS]\ntrain.py: error: unrecognized arguments: --epoch 3", 2)],
  // ---------------- output_too_large
  ["output_too_large", "a tool result over a KB limit", framework("read_file", "Tool result too large: 1.2 MB exceeds the 100 KB limit")],
  ["output_too_large", "output exceeded N characters", framework("bash", "Output truncated: the command's output exceeded 30000 characters")],
  ["output_too_large", "a string with a maximum length", framework("chat.completions", "Invalid 'messages[1].content': string too long. Expected a string with maximum length 1048576, but got a string with length 2200000 instead.")],
  ["output_too_large", "a file greater than 2 GiB", shell("node", "RangeError [ERR_FS_FILE_TOO_LARGE]: File size (3221225472) is greater than 2 GiB")],
  ["output_too_large", "log output exceeded its limit", framework("ci_job", "The job log exceeded the 4 MB limit and was truncated.")],
  ["output_too_large", "model supports at most N tokens", framework("llm", "Your input is 140213 tokens, but the model supports at most 128000 tokens.")],
  ["output_too_large", "input length plus max_tokens exceeds the context limit", framework("messages", "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again")],
  ["output_too_large", "a response larger than the fetch tool takes", framework("web_fetch", "Maximum response size reached: the page is larger than 10 MB")],
  ["output_too_large", "DynamoDB item size", shell("aws", "An error occurred (ValidationException) when calling the PutItem operation: Item size has exceeded the maximum allowed size", 254)],
  ["output_too_large", "a payload over a queue's limit", framework("sqs.send_message", "InvalidParameterValue: One or more parameters are invalid. Reason: Message must be shorter than 262144 bytes.")],
  ["output_too_large", "too many rows returned by a tool", framework("run_query", "QueryError: result set has 2,000,000 rows, above the tool's limit of 10,000 rows")],
  ["output_too_large", "a websocket frame too big", framework("ws", "WebSocket closed with 1009: message too big")],
  ["output_too_large", "an embedding input over the token maximum", framework("embeddings", "This model's maximum input is 8191 tokens, however you requested 9450 tokens")],
  // ---------------- syntax_error
  ["syntax_error", "rustc: expected one of … found", shell("cargo", "error: expected one of `.`, `;`, `?`, `}`, or an operator, found `let`\n --> src/main.rs:4:5", 101)],
  ["syntax_error", "TOML decode error", shell("python3", "toml.decoder.TomlDecodeError: Key name found without value. Reached end of line. (line 3 column 8 char 27)")],
  ["syntax_error", "malformed JSON in a body", framework("api", "Error: Malformed JSON in request body at position 41")],
  ["syntax_error", "tool arguments that could not be parsed as JSON", framework("agent", "could not parse the tool arguments as JSON: trailing comma at line 1 column 42")],
  ["syntax_error", "Dockerfile unknown instruction", shell("docker", "ERROR: failed to solve: dockerfile parse error on line 5: unknown instruction: RUNN")],
  ["syntax_error", "Go: syntax error unexpected newline", shell("go", "./main.go:12:2: syntax error: unexpected newline, expected comma or }")],
  ["syntax_error", "SQLite near: syntax error", shell("sqlite3", "Parse error: near \"SELEC\": syntax error")],
  ["syntax_error", "GraphQL syntax error", framework("graphql", "GraphQLError: Syntax Error: Expected Name, found \"}\".")],
  ["syntax_error", "PromQL parse error", framework("prometheus", "bad_data: 1:14: parse error: unexpected right parenthesis ')'")],
  ["syntax_error", "XML mismatched tag", shell("python3", "xml.etree.ElementTree.ParseError: mismatched tag: line 12, column 4")],
  ["syntax_error", "jq compile error", shell("jq", "jq: error: syntax error, unexpected INVALID_CHARACTER (Unix shell quoting issues?) at <top-level>, line 1:\njq: 1 compile error", 3)],
  ["syntax_error", "invalid YAML in a workflow", framework("github-actions", "Invalid workflow file: .github/workflows/ci.yml#L12\nYou have an error in your yaml syntax on line 12")],
  ["syntax_error", "Python f-string error", shell("python3", "  File \"app.py\", line 9\n    print(f\"{x!}\")\n                 ^\nSyntaxError: f-string: missing conversion character")],
  ["syntax_error", "Lua: unexpected symbol", shell("lua", "lua: init.lua:7: unexpected symbol near '}'")],
  ["syntax_error", "HCL: argument definition expected", shell("terraform", "Error: Argument or block definition required\n\n  on main.tf line 14: An argument or block definition is required here.")],

]);

/** Probing the weak types, round 2: written after round 1's rules, as a check. */
const probeRound2 = group([
  ["environment_missing", "a Rails credential key missing", shell("rails", "ActiveSupport::EncryptedFile::MissingKeyError: Missing encryption key to decrypt file with. Ask your team for your master key and write it to config/master.key or put it in the ENV['RAILS_MASTER_KEY'].")],
  ["environment_missing", "Vault address not configured", shell("vault", "Error checking seal status: Get \"https://127.0.0.1:8200/v1/sys/seal-status\": VAULT_ADDR is empty")],
  ["environment_missing", "no gcloud project set", shell("gcloud", "ERROR: (gcloud.run.deploy) The required property [project] is not currently set.\nYou may set it for your current workspace by running:\n  $ gcloud config set project VALUE")],
  ["environment_missing", "poetry outside a project", shell("poetry", "Poetry could not find a pyproject.toml file in /home/u or its parents", 1)],
  ["environment_missing", "terraform no kube context", shell("terraform", "Error: Kubernetes cluster unreachable: no current context is set in the kubeconfig")],
  ["environment_missing", "a conda env that was never activated", shell("python", "EnvironmentError: this script must be run inside an activated conda environment")],
  ["environment_missing", "pipx/pyenv virtualenv not active", shell("make", "error: not in a virtualenv; run `python -m venv .venv && . .venv/bin/activate` first", 2)],
  ["environment_missing", "diffusers weights not present", shell("python3", "OSError: Error no file named diffusion_pytorch_model.safetensors found in directory ./sd-models; the weights do not exist locally")],
  ["environment_missing", "Ollama: no models pulled", framework("ollama", "Error: no models are installed. Run `ollama pull llama3.2` to download one.")],
  ["environment_missing", "an offline HF tokenizer", shell("python3", "OSError: We couldn't find tokenizer.json in the local cache and HF_HUB_OFFLINE=1 is set.")],
  ["environment_missing", "Android NDK native lib", shell("adb", "java.lang.UnsatisfiedLinkError: dlopen failed: library \"libnative-lib.so\" not found")],
  ["environment_missing", "ROS setup not sourced", shell("colcon", "ERROR: AMENT_PREFIX_PATH is empty. Please source your ROS 2 installation first.")],
  ["environment_missing", "Ruby not installed at that version", shell("bundle", "Your Ruby version is 3.1.4, but your Gemfile specified 3.3.0\nruby 3.3.0 is not installed", 18)],
  ["environment_missing", "a Flutter SDK missing", shell("fvm", "Flutter SDK 3.19.0 is not installed. Run `fvm install 3.19.0`.")],
  ["environment_missing", "Azure: no subscription selected", shell("az", "ERROR: No subscription found. Run 'az account set' to select a subscription.")],
  ["tool_not_found", "Haystack: tool not in the toolset", framework("ToolInvoker", "ToolNotFoundException: the model called 'get_wether', which is not one of the tools in this ToolInvoker")],
  ["tool_not_found", "a skill never installed on the assistant", framework("assistant", "Skill 'pdf-extract' has not been installed for this assistant")],
  ["tool_not_found", "no MCP server provides it", framework("mcp-client", "none of the configured MCP servers provides a tool called 'fs_write'")],
  ["tool_not_found", "a robot action server absent", framework("nav", "ActionClient: action 'navigate_to_pose_v2' is not available on this robot; known actions: navigate_to_pose")],
  ["tool_not_found", "OpenAI function not in the function list", framework("responses", "The model called function 'lookup_sku', which is not defined in the request's tools")],
  ["tool_not_found", "a model-invented tool", framework("agent", "Model hallucinated function name `search_docs_v3`; ignoring call")],
  ["tool_not_found", "Dify plugin tool not registered", framework("dify", "Tool provider 'tavily' has not been registered in this workspace")],
  ["permission_denied", "a tool blocked by an org allowlist", framework("Bash", "Bash is not in the allowed tools list configured by your organization")],
  ["permission_denied", "an MCP tool disabled by the admin", framework("mcp", "Tool 'delete_branch' has been disabled by your administrator")],
  ["command_not_found", "bad interpreter from a CRLF script", shell("./deploy.sh", "/usr/bin/env: 'bash\\r': No such file or directory", 127)],
  ["command_not_found", "an ARM binary on x86", shell("./tool", "zsh: exec format error: ./tool", 126)],
  ["command_not_found", "Node cannot spawn a compiler", framework("build", "Error: spawn tsc ENOENT")],
  ["command_not_found", "Python asyncio cannot spawn", shell("python3", "FileNotFoundError: [Errno 2] No such file or directory: 'ffprobe'")],
  ["command_not_found", "PowerShell Italian", shell("pwsh", "Termine 'node' non è riconosciuto come nome di cmdlet, funzione, programma eseguibile o file script.")],
  ["command_not_found", "which in a CI step", shell("which", "which: no gcloud in (/usr/bin:/bin)", 1)],
  ["invalid_arguments", "clap: argument cannot be used with", shell("ripgrep", "error: the argument '--files' cannot be used with '--type-list'", 2)],
  ["invalid_arguments", "typer: missing option", shell("python3", "Usage: cli.py run [OPTIONS]\nTry 'cli.py run --help' for help.\n\nError: Missing option '--name'.", 2)],
  ["invalid_arguments", "mv: missing operand", shell("mv", "mv: missing file operand\nTry 'mv --help' for more information.")],
  ["invalid_arguments", "a tool called without a required input", framework("translate", "Tool translate was invoked without the required input 'target_lang'")],
  ["invalid_arguments", "a servo angle out of range", framework("servo", "ValueError: angle 270 is out of range (must be between 0 and 180)")],
  ["invalid_arguments", "pip: invalid version specifier", shell("pip", "ERROR: Invalid requirement: 'numpy=>1.26'")],
  ["output_too_large", "a tool result token cap", framework("read_file", "File content (48213 tokens) exceeds maximum allowed tokens (25000). Please use offset and limit parameters.")],
  ["output_too_large", "Lambda response size", framework("lambda.invoke", "Response payload size exceeded maximum allowed payload size (6291556 bytes).")],
  ["output_too_large", "Slack message over limit", framework("chat.postMessage", "msg_too_long: the text is longer than 40000 characters")],
  ["output_too_large", "a model accepting up to N tokens", framework("embed", "This endpoint accepts up to 512 tokens per input; got 913")],
  ["output_too_large", "a git push over the limit of N MB", shell("git", "remote: error: pack exceeds maximum allowed size of 2 GiB", 1)],
  ["syntax_error", "rustc: expected expression", shell("cargo", "error: expected expression, found `)`\n --> src/lib.rs:10:17", 101)],
  ["syntax_error", "malformed YAML manifest", shell("kubectl", "error: malformed YAML in deploy.yaml: found a tab character that violates indentation")],
  ["syntax_error", "cannot parse tool arguments as JSON", framework("agent", "Failed to parse function arguments as JSON: Unexpected token } in JSON at position 57")],
  ["syntax_error", "an INI parse error", shell("python3", "configparser.MissingSectionHeaderError: File contains no section headers.\nfile: 'setup.cfg', line: 1")],

]);

/** Probing the weak types, round 3: written after the rules of rounds 1 and 2 (b2129a5), before the rules it led to. */
const probeRound3 = group([
  ["environment_missing", "cargo outside a package", shell("cargo", "error: could not find `Cargo.toml` in `/srv/app` or any parent directory", 101)],
  ["environment_missing", "go without a module", shell("go", "go: cannot find main module, but found .git/config in /src\n\tto create a module there, run:\n\tgo mod init")],
  ["environment_missing", "docker without the GPU toolkit", shell("docker", "docker: Error response from daemon: could not select device driver \"\" with capabilities: [[gpu]].", 125)],
  ["environment_missing", "Chrome path not configured", shell("node", "Error: Chrome not found. Set the CHROME_PATH environment variable to the browser's executable.")],
  ["environment_missing", "Selenium cannot obtain a driver", shell("python3", "selenium.common.exceptions.NoSuchDriverException: Message: Unable to obtain driver for chrome using Selenium Manager.")],
  ["environment_missing", "wandb without a key", shell("python3", "wandb: ERROR api_key not configured (no-tty). call wandb.login(key=[your_api_key])")],
  ["environment_missing", "a system library to install", shell("npm", "Error: Missing system dependency: libvips. Install it with `brew install vips` and retry.")],
  ["environment_missing", "MSVC build tools required", shell("pip", "error: Microsoft Visual C++ 14.0 or greater is required. Get it with \"Microsoft C++ Build Tools\": https://visualstudio.microsoft.com/visual-cpp-build-tools/")],
  ["environment_missing", "node-gyp without Visual Studio", shell("npm", "gyp ERR! find VS could not find a version of Visual Studio 2017 or newer to use")],
  ["environment_missing", "a ROS package path not set", shell("roslaunch", "RLException: ROS_PACKAGE_PATH is not set; source /opt/ros/noetic/setup.bash")],
  ["environment_missing", "no kube config in the pod", shell("python3", "kubernetes.config.config_exception.ConfigException: Invalid kube-config file. No configuration found.")],
  ["environment_missing", "no .NET SDK of the global.json version", shell("dotnet", "A compatible .NET SDK was not found.\n\nRequested SDK version: 9.0.100\nglobal.json file: /src/global.json")],
  ["environment_missing", "firmware toolchain missing", shell("make", "Error: arm-none-eabi toolchain not found; install the GNU Arm Embedded Toolchain and add it to PATH", 2)],
  ["environment_missing", "a secret not mounted", shell("python3", "RuntimeError: secret file /run/secrets/db_password is missing; mount the Docker secret first")],
  ["tool_not_found", "no implementation for a function", framework("plot_chart", "function_call error: no implementation for 'plot_chart'")],
  ["tool_not_found", "no skill registered for an intent", framework("assistant", "RuntimeError: no skill registered for intent 'open_door'")],
  ["tool_not_found", "a tool not listed by an MCP server", framework("mcp", "Tool 'create_pr' is not listed by server 'github'")],
  ["tool_not_found", "the LLM's action names a tool that does not exist", framework("sql_db_query2", "Agent stopped: the LLM output an action for tool `sql_db_query2`, which does not exist")],
  ["tool_not_found", "a tool with the name not found in the toolkit", framework("crm_lookup", "ValueError: Could not find a tool with the name 'crm_lookup' in the toolkit")],
  ["tool_not_found", "no tools registered and a call made", framework("lookup", "No tools are registered for this agent, but the model attempted to call 'lookup'")],
  ["tool_not_found", "Requested tool does not exist", framework("image_gen", "Error: Requested tool 'image_gen' does not exist. Use /tools to list them.")],
  ["tool_not_found", "a handler map without the name", framework("dispatch", "TypeError: handlers[call.name] is not a function (tool 'send_sms' has no handler)")],
  ["tool_not_found", "a tool that is not exposed to the model", framework("agent", "The model tried to call 'delete_user', but that tool is not exposed to it")],
  ["permission_denied", "a tool the policy does not allow", framework("shell", "Tool call to 'shell' was rejected: the policy does not allow this tool")],
  ["command_not_found", "a program not on PATH", shell("node", "Error: Could not find 'python3' on PATH")],
  ["command_not_found", "a CLI named as a command, with an install hint", shell("release.sh", "Error: command 'gh' not found; install the GitHub CLI from https://cli.github.com")],
  ["command_not_found", "gcc missing for a build", shell("pip", "error: command 'gcc' failed: No such file or directory")],
  ["command_not_found", "ffmpeg binary not found", shell("python3", "RuntimeError: ffmpeg binary not found. Install ffmpeg and make sure it is on your PATH.")],
  ["command_not_found", "bun cannot find a bin", shell("bun", "error: could not find bin \"vite\"\n\nDid you mean to run \"bunx vite\"?")],
  ["command_not_found", "a hook script's program missing", shell("git", ".git/hooks/pre-commit: line 3: npx: command not found", 127)],
  ["invalid_arguments", "argparse: required arguments", shell("python3", "usage: ingest.py [-h] --input INPUT\ningest.py: error: the following arguments are required: --input", 2)],
  ["invalid_arguments", "git: switch requires a value", shell("git", "error: switch `m' requires a value", 129)],
  ["invalid_arguments", "argparse: invalid int value", shell("python3", "train.py: error: argument --epochs: invalid int value: 'ten'", 2)],
  ["invalid_arguments", "clap 4: invalid value for an option", shell("mytool", "error: invalid value 'fast' for '--mode <MODE>'\n  [possible values: debug, release]", 2)],
  ["invalid_arguments", "a port number out of range", shell("nc", "nc: port number invalid: 99999")],
  ["invalid_arguments", "JSON mode without the word json", framework("chat.completions", "Error code: 400 - 'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.")],
  ["invalid_arguments", "a file argument that is missing", withArgs("jq", [".a", "data.json"], "jq: error: Could not open data.json: No such file or directory", 2)],
  ["invalid_arguments", "a tool schema the API refuses", framework("responses", "Invalid 'tools[0].function.parameters': schema must be a JSON Schema of 'type: \"object\"', got 'type: \"string\"'.")],
  ["invalid_arguments", "a robot pose unreachable as given", framework("move_to", "PlanningError: the requested pose is out of the arm's reach (x=1.8 m exceeds reach 1.3 m)")],
  ["output_too_large", "over the N KB limit", framework("read_url", "tool output (312 KB) is over the 256 KB limit")],
  ["output_too_large", "more than the model's limit", framework("llm", "The prompt has 9000 tokens, which is more than the model's limit of 8192")],
  ["output_too_large", "a diff too big to show", framework("github", "The diff is too big to be displayed (over 20,000 lines)")],
  ["output_too_large", "a column value too long", shell("psql", "ERROR:  value too long for type character varying(255)")],
  ["output_too_large", "an output truncated at the maximum", framework("bash", "The response was truncated because it exceeded the maximum output size")],
  ["output_too_large", "a git push of a file over 100 MB", shell("git", "remote: error: File weights.bin is 420.00 MB; this exceeds the hard limit of 100.00 MB", 1)],
  ["output_too_large", "too many rows for the limit", framework("sql", "Too many rows: the query returned 120000 rows (limit 50000)")],
  ["syntax_error", "rustc: expected ; found }", shell("cargo", "error: expected `;`, found `}`", 101)],
  ["syntax_error", "rustc: unknown start of token", shell("cargo", "error: unknown start of token: \\u{201c}", 101)],
  ["syntax_error", "Go's JSON: invalid character", shell("./svc", "panic: invalid character '}' looking for beginning of object key string")],
  ["syntax_error", "sed: unterminated s command", shell("sed", "sed: -e expression #1, char 9: unterminated `s' command")],
  ["syntax_error", "awk syntax error", shell("awk", "awk: cmd. line:1: {print $1\nawk: cmd. line:1:          ^ unexpected newline or end of string", 2)],
  ["syntax_error", "a JSON config parse failure", shell("node", "Error: Failed to parse tsconfig.json: Unexpected token } in JSON at position 211")],
  ["syntax_error", "a Makefile missing separator", shell("make", "Makefile:7: *** missing separator.  Stop.", 2)],
  ["syntax_error", "a Jinja template error", shell("ansible-playbook", "ERROR! template error while templating string: unexpected '}'. String: {{ item }")],

]);

/** Probing the weak types, round 4: written after round 3's rules (b1dcc95), before the rules it led to. */
const probeRound4 = group([
  ["environment_missing", "Arduino core not installed", shell("arduino-cli", "Error during build: Platform 'esp32:esp32' not found: platform not installed")],
  ["environment_missing", "PlatformIO platform missing", shell("pio", "Error: Unknown development platform 'espressif32'; install it with `pio pkg install -g -p espressif32`")],
  ["environment_missing", "Jetson: CUDA toolkit not found", shell("cmake", "CMake Error: CUDA toolkit not found. Set CUDAToolkit_ROOT to the toolkit's location.")],
  ["environment_missing", "Deno: a missing env var", shell("deno", "error: Uncaught (in promise) Error: Missing env var SUPABASE_URL")],
  ["environment_missing", "PHP extension missing", shell("composer", "Your requirements could not be resolved to an installable set of packages.\n  Problem 1\n    - laravel/framework requires ext-mbstring * -> it is missing from your system. Install or enable PHP's mbstring extension.")],
  ["environment_missing", "Spring AI key property", shell("java", "java.lang.IllegalArgumentException: OpenAI API key must be set. Use the connection property: spring.ai.openai.api-key or spring.ai.openai.chat.api-key property.")],
  ["environment_missing", "Pulumi stack not selected", shell("pulumi", "error: no stack selected; please use `pulumi stack select` or `pulumi stack init` to choose one")],
  ["environment_missing", "Terraform not initialised", shell("terraform", "Error: Inconsistent dependency lock file\n\nThe following dependency selections recorded in the lock file are inconsistent with the current configuration:\n  - provider registry.terraform.io/hashicorp/aws: required by this configuration but no version is selected\n\nTo make the initial dependency selections that will initialize the dependency lock file, run:\n  terraform init")],
  ["environment_missing", "Xcode simulator runtime missing", shell("xcodebuild", "xcodebuild: error: Unable to find a destination matching the provided destination specifier: iOS Simulator runtime 17.2 is not installed.")],
  ["environment_missing", "Elixir: Hex not installed", shell("mix", "Could not find Hex, which is needed to build dependency :jason\nShall I install Hex? (if running non-interactively, use \"mix local.hex --force\")")],
  ["environment_missing", "Bun: a registry token not set", shell("bun", "error: missing authentication token for registry npm.pkg.github.com; set NPM_TOKEN in .npmrc")],
  ["tool_not_found", "Spring AI: tool callback name missing", framework("spring-ai", "IllegalStateException: No ToolCallback registered under the name 'getWeatherV2'")],
  ["tool_not_found", "Vercel AI SDK no-such-tool, other words", framework("generateText", "NoSuchToolError: The model called a tool named \"search_flights\" that is not part of the tools you passed")],
  ["tool_not_found", "a function the runtime cannot dispatch", framework("kernel", "Could not dispatch function call 'email-send': function is not registered in any plugin")],
  ["tool_not_found", "Continue: tool not available in this mode", framework("continue", "Tool \"builtin_run_terminal\" does not exist in the current configuration")],
  ["tool_not_found", "Aider-like: unknown edit command", framework("agent", "The model asked to run the tool `apply_patch_v2`; there is no such tool in this session")],
  ["tool_not_found", "OpenAI Agents: handoff target missing", framework("Runner", "ModelBehaviorError: Handoff/tool 'billing_agent' not found in agent Triage")],
  ["tool_not_found", "a robot behaviour tree node type unknown", framework("bt", "RuntimeError: Node type 'OpenGripperV2' is not registered in the BehaviorTreeFactory")],
  ["tool_not_found", "MCP inspector: unknown tool name", framework("mcp", "{\"jsonrpc\":\"2.0\",\"id\":7,\"error\":{\"code\":-32602,\"message\":\"Unknown tool: list_issuez\"}}")],
  ["permission_denied", "a tool forbidden to a role", framework("deploy", "Forbidden: role 'viewer' may not call tool 'deploy'")],
  ["permission_denied", "an MCP server's tool denied by the client config", framework("mcp", "Tool 'exec' from server 'shell' is blocked by your MCP client's settings")],
  ["command_not_found", "Deno: command spawn NotFound", shell("deno", "error: Uncaught (in promise) NotFound: Failed to spawn 'magick': entity not found")],
  ["command_not_found", "Java ProcessBuilder on Windows", shell("java", "java.io.IOException: Cannot run program \"ffmpeg.exe\": CreateProcess error=2, The system cannot find the file specified")],
  ["command_not_found", ".NET Process.Start", shell("dotnet", "System.ComponentModel.Win32Exception (2): An error occurred trying to start process 'git' with working directory '/src'. No such file or directory")],
  ["command_not_found", "Ansible command module", shell("ansible-playbook", "fatal: [web1]: FAILED! => {\"changed\": false, \"cmd\": \"pm2 restart all\", \"msg\": \"[Errno 2] No such file or directory: b'pm2'\", \"rc\": 2}")],
  ["command_not_found", "a Node script's shebang runtime missing", shell("./cli.js", "/usr/bin/env: ‘node’: No such file or directory", 127)],
  ["invalid_arguments", "Terraform: unsupported argument", shell("terraform", "Error: Unsupported argument\n\n  on main.tf line 12, in resource \"aws_s3_bucket\" \"b\":\n  12:   acl_policy = \"private\"\n\nAn argument named \"acl_policy\" is not expected here.")],
  ["invalid_arguments", "Helm: a value of the wrong type", shell("helm", "Error: values don't meet the specifications of the schema(s) in the following chart(s):\napi:\n- replicaCount: Invalid type. Expected: integer, given: string")],
  ["invalid_arguments", "kubectl: a selector that does not parse as an argument", shell("kubectl", "error: unable to parse requirement: found '=', expected: identifier")],
  ["invalid_arguments", "AWS CLI: an unknown parameter", shell("aws", "Unknown options: --bucket-nam, my-bucket", 252)],
  ["invalid_arguments", "Mongo: unknown operator", shell("mongosh", "MongoServerError: unknown operator: $regexx")],
  ["invalid_arguments", "Redis: wrong number of arguments", shell("redis-cli", "(error) ERR wrong number of arguments for 'set' command")],
  ["invalid_arguments", "Elasticsearch: a field the mapping rejects", framework("es.index", "mapper_parsing_exception: failed to parse field [age] of type [long] in document with id '1'. Preview of field's value: 'ten'")],
  ["invalid_arguments", "Kafka: an unknown topic as the argument", shell("kafka-console-consumer.sh", "Error: Topic 'ordrs' does not exist; use --topic with an existing topic")],
  ["output_too_large", "Kafka: record too large", framework("producer", "org.apache.kafka.common.errors.RecordTooLargeException: The message is 2097152 bytes when serialized which is larger than 1048576, which is the value of the max.request.size configuration.")],
  ["output_too_large", "Mongo: document too large", shell("mongosh", "MongoServerError: BSONObj size: 17825792 (0x1100000) is invalid. Size must be between 0 and 16793600(16MB)")],
  ["output_too_large", "an LLM output cut at max tokens, asked larger than allowed", framework("llm", "max_tokens: 200000 > 64000, which is the maximum allowed number of output tokens for claude-sonnet")],
  ["output_too_large", "SQS batch size", framework("sqs", "BatchRequestTooLong: Batch requests cannot be longer than 262144 bytes")],
  ["output_too_large", "a screenshot too large for the model", framework("browser_screenshot", "Image exceeds 5 MB maximum: 7340032 bytes")],
  ["syntax_error", "Ansible YAML", shell("ansible-playbook", "ERROR! We were unable to read either as JSON nor YAML, these are the errors we got from each:\nJSON: Expecting value: line 1 column 1 (char 0)\n\nSyntax Error while loading YAML.")],
  ["syntax_error", "PHP parse error", shell("php", "PHP Parse error:  syntax error, unexpected token \"}\" in /app/index.php on line 14", 255)],
  ["syntax_error", "Swift expected", shell("swift", "main.swift:4:18: error: expected ')' in expression list", 1)],
  ["syntax_error", "Kotlin expecting", shell("gradle", "e: file:///src/Main.kt:7:1 Expecting '}'", 1)],
  ["syntax_error", "Elixir: missing terminator", shell("mix", "** (SyntaxError) lib/app.ex:12:1: missing terminator: end (for \"do\" starting at line 3)")],
  ["syntax_error", "an LLM's JSON output that does not parse", framework("structured_output", "OutputParserException: Invalid json output: {\"name\": \"x\",")],
  ["syntax_error", "SQL Server incorrect syntax", shell("sqlcmd", "Msg 102, Level 15, State 1, Server db, Line 1\nIncorrect syntax near 'FORM'.")],

]);

/** Probing the weak types, round 5: near neighbours (where a rule of the next type could fire), written after c4d81a5. */
const probeRound5 = group([
  ["permission_denied", "a tool the user has not enabled for this agent (policy)", framework("browser", "Tool 'browser' requires approval: your workspace policy only allows read-only tools")],
  ["permission_denied", "an allowlist miss worded with 'not permitted'", framework("run", "Command 'nc' is not permitted by the sandbox allowlist")],
  ["permission_denied", "a tool denied for this user", framework("admin_reset", "Access denied: user 'ops-bot' is not allowed to use tool 'admin_reset'")],
  ["tool_not_found", "a tool name that only looks like a refusal", framework("approve", "Unknown tool 'approve': this agent's tools are search, fetch")],
  ["tool_not_found", "a disabled-sounding but absent tool", framework("translate", "Tool 'translate' is unavailable: no such tool is configured in this project")],
  ["environment_missing", "a config file the program reads, not named by the call", shell("app", "Error: ENOENT: no such file or directory, open '/srv/app/config/production.json'")],
  ["invalid_arguments", "a data file the call names", withArgs("csvkit", ["sales_2023.csv"], "FileNotFoundError: [Errno 2] No such file or directory: 'sales_2023.csv'")],
  ["invalid_arguments", "a script path the call names", withArgs("python3", ["scripts/migrate.py"], "python3: can't open file '/srv/scripts/migrate.py': [Errno 2] No such file or directory", 2)],
  ["command_not_found", "a program the script runs, missing", shell("./build.sh", "./build.sh: line 9: protoc: command not found", 127)],
  ["environment_missing", "a Python module, not a program", shell("python3", "ModuleNotFoundError: No module named 'cv2'")],
  ["environment_missing", "a Node package, not a program", shell("node", "Error: Cannot find package 'sharp' imported from /app/resize.mjs")],
  ["command_not_found", "a program named like a package", shell("npm", "sh: 1: prisma: not found", 127)],
  ["rate_limited", "a token-per-minute limit, not a size", framework("llm", "Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000.")],
  ["output_too_large", "a request over the per-request token cap", framework("llm", "Requested 180000 tokens, but this model allows at most 128000 tokens per request")],
  ["invalid_arguments", "a count below the minimum", framework("generate", "n must be at least 1; got 0")],
  ["output_too_large", "a batch above its maximum items", framework("embed_batch", "Batch has 3000 inputs, more than the maximum of 2048 inputs per request")],
  ["syntax_error", "a regex that does not compile as the tool's query", shell("grep", "grep: Unmatched ( or \\(", 2)],
  ["invalid_arguments", "a date format the tool does not accept", framework("schedule", "invalid date format '31/12/2024': expected YYYY-MM-DD")],
  ["syntax_error", "a SQL query the tool ran that does not parse", framework("run_sql", "psycopg.errors.SyntaxError: syntax error at or near \"WHERE\"\nLINE 1: SELECT * FROM orders WHERE WHERE id = 1")],
  ["invalid_arguments", "a SQL identifier that does not exist as an argument", framework("run_sql", "psycopg.errors.UndefinedColumn: column \"totl\" does not exist")],
  ["network_error", "TLS, not permission", shell("pip", "Could not fetch URL https://pypi.org/simple/requests/: There was a problem confirming the ssl certificate: HTTPSConnectionPool(host='pypi.org', port=443): Max retries exceeded (Caused by SSLError(SSLCertVerificationError(1, '[SSL: CERTIFICATE_VERIFY_FAILED]')))")],
  ["timeout", "a tool call that took too long, not too large", framework("web_fetch", "Tool web_fetch exceeded its 30 s time limit and was cancelled")],
  ["environment_missing", "a browser for the MCP server", framework("browser_navigate", "Error: Browser \"chrome\" is not installed. Run `npx @playwright/mcp install-browser chrome` to install")],
  ["command_not_found", "uvx not installed for an MCP server", framework("mcp", "Failed to start MCP server 'fetch': spawn uvx ENOENT")],
  ["environment_missing", "Docker compose file missing in the project", shell("docker", "no configuration file provided: not found", 14)],
  ["environment_missing", "a device not connected (robot)", shell("ros2", "[ERROR] [realsense2_camera]: No RealSense devices were found!")],
  ["environment_missing", "a serial port absent (embedded)", shell("esptool.py", "A fatal error occurred: Could not open /dev/ttyUSB0, the port doesn't exist")],

]);

/**
 * Probing the weak types, round 6 (2026-11-28): the families written for the probes rounds 1–5 still missed (a login never done vs
 * a credential rejected, an option the parser has no name for, a program not on a tool's path, Erlang's `:enoent` of a program,
 * a physical quantity over its limit, an identifier of a kind not well-formed, a count setting exceeded, a character the
 * language does not use), each in other products' words, written after those rules as a check.
 */
const probeRound6 = group([
  ["environment_missing", "a registry publish without a login", shell("cargo", "error: You must be logged in to publish crates. Run `cargo login` first.", 101)],
  ["environment_missing", "a hosting CLI never logged in", shell("vercel", "Error: You must be logged in to use this command.")],
  ["permission_denied", "a login the server rejects (Unauthorized)", shell("oc", "error: You must be logged in to the server (Unauthorized)")],
  ["permission_denied", "a login whose token expired", framework("registry", "You must be logged in: your session token has expired")],
  ["invalid_arguments", "Dart's args: no option of that name", withArgs("dart", ["run", "--verbose-output"], 'Could not find an option named "verbose-output".', 64)],
  ["invalid_arguments", "no option named, with a suggestion", withArgs("kit", ["--colour"], "error: no option named 'colour'; did you mean 'color'?", 2)],
  ["invalid_arguments", "cannot find a flag called", withArgs("deployer", ["--dry"], "Cannot find a flag called --dry")],
  ["command_not_found", "a program not on the system path", shell("nextflow", "ERROR: bwa is not found on the system path")],
  ["command_not_found", "a program not in your PATH", shell("./align.sh", "samtools was not found in your PATH", 127)],
  ["command_not_found", "Elixir System.cmd of a missing program", shell("mix", "** (ErlangError) Erlang error: :enoent\n    (elixir 1.15.7) lib/system.ex:1110: System.cmd(\"wkhtmltopdf\", [\"--quiet\"], [])")],
  ["command_not_found", "Erlang open_port of a missing executable", shell("erl", "** exception error: {error,enoent}\n     in function  erlang:open_port/2\n        called as erlang:open_port({spawn_executable,\"/usr/bin/convert\"},[])")],
  ["invalid_arguments", "a joint velocity over its maximum", framework("move_arm", "Error: joint velocity 3.2 rad/s exceeds the maximum 2.0 rad/s")],
  ["invalid_arguments", "a temperature above the hotend's limit", framework("set_temp", "Requested temperature 320 °C is above the limit 280 °C of this hotend")],
  ["invalid_arguments", "a current over the hardware limit", shell("motorctl", "error: current 12 A is over the hardware limit of 8 A")],
  ["invalid_arguments", "not a valid CIDR block", shell("terraform", "Error: \"10.0.0.0/33\" is not a valid CIDR block")],
  ["invalid_arguments", "an invalid UUID", framework("get_order", "Invalid UUID: 'abc-123'")],
  ["invalid_arguments", "an invalid ARN", shell("aws", "Invalid ARN: arn:aws:sqs:eu-west-1 is missing the account id", 255)],
  ["output_too_large", "Lucene's too many clauses", shell("solr", "org.apache.lucene.search.BooleanQuery$TooManyClauses: maxClauseCount is set to 1024")],
  ["output_too_large", "too many terms for a setting", framework("search", "too_many_terms: the terms query has 70000 terms, max_terms_count is 65536")],
  ["syntax_error", "a character OpenTofu's language does not use", shell("tofu", "Error: Invalid character\n\n  on vars.tf line 2:\n\nThis character is not used within the language.")],
  ["syntax_error", "a typographic quote not allowed in the syntax", shell("jsonnet", "error: character '“' is not allowed in the syntax")],
]);

/**
 * Codes defined by a standard (2026-11-28): SQLSTATE, MySQL/MariaDB numbers, SQLite result codes, MongoDB codes, gRPC statuses,
 * curl exit codes, Win32/HRESULT/Winsock, errno numbers, and the standard-library exception classes of Java, .NET and Python,
 * each in several drivers' or products' forms, written by hand from the standards' references (lib/diagnosis/standard-codes.ts),
 * none from a corpus case; then guards: a code several types print, where the message's own statement decides.
 */
const standardCodes = group([
  // SQLSTATE
  ["invalid_arguments", "pgx: undefined table (SQLSTATE 42P01)", shell("migrate", 'error: ERROR: relation "invoices" does not exist (SQLSTATE 42P01)')],
  ["invalid_arguments", "psycopg: undefined column by pgcode", framework("sql_query", "psycopg.errors.UndefinedColumn: column \"emial\" of relation \"users\" does not exist\nSQLSTATE: 42703")],
  ["invalid_arguments", "node-postgres error object: undefined function", framework("db_query", "error: function jsonb_path_exist(jsonb, unknown) does not exist\n    at Parser.parseErrorMessage\n  severity: 'ERROR',\n  code: '42883',\n  hint: 'No function matches the given name and argument types.'")],
  ["invalid_arguments", "JDBC: unique violation 23505", shell("java", "org.postgresql.util.PSQLException: ERROR: duplicate key value violates unique constraint \"orders_pkey\"\n  SQLState: 23505")],
  ["invalid_arguments", "PDO: data exception 22P02", framework("php_exec", "SQLSTATE[22P02]: Invalid text representation: 7 ERROR:  invalid input syntax for type uuid: \"abc\"")],
  ["invalid_arguments", "sqlstate= key: integrity, foreign key", framework("db_query", "IntegrityError(sqlstate=23503): insert or update on table \"items\" violates foreign key constraint \"items_order_fk\"")],
  ["syntax_error", "pgx: syntax error (SQLSTATE 42601)", shell("goose", 'goose run: ERROR: syntax error at or near "SELEC" (SQLSTATE 42601)')],
  ["syntax_error", "asyncpg: PostgresSyntaxError sqlstate", framework("sql_query", "asyncpg.exceptions.PostgresSyntaxError: syntax error at end of input\nsqlstate: 42601")],
  ["permission_denied", "pgx: insufficient privilege (SQLSTATE 42501)", shell("atlas", "Error: pq: permission denied for schema audit (SQLSTATE 42501)")],
  ["permission_denied", "JDBC: invalid password 28P01", shell("flyway", "ERROR: Unable to obtain connection from database: FATAL: password authentication failed for user \"app\"\nSQL State  : 28P01\nError Code : 0")],
  ["permission_denied", "ODBC: invalid authorization 28000", framework("odbc_query", "[28000] [Microsoft][ODBC Driver 18 for SQL Server][SQL Server]Login failed for user 'report'. SQLSTATE=28000")],
  ["timeout", "pgx: query canceled by statement timeout (57014)", shell("worker", "ERROR: canceling statement due to statement timeout (SQLSTATE 57014)")],
  ["timeout", "JDBC: query canceled SQLState 57014", shell("java", "org.postgresql.util.PSQLException: ERROR: canceling statement due to user request\n  SQLState: 57014")],
  ["rate_limited", "pgx: too many connections (SQLSTATE 53300)", shell("api", "failed to connect to `host=db user=app database=app`: server error (FATAL: sorry, too many clients already (SQLSTATE 53300))")],
  ["network_error", "JDBC: connection attempt failed 08001", shell("java", "org.postgresql.util.PSQLException: The connection attempt failed.\n  SQLState: 08001\nCaused by: java.net.SocketException: Network is unreachable")],
  ["network_error", "PDO: connection failure 08006, server not answering", framework("php_exec", "SQLSTATE[08006] [7] could not connect to server: Connection timed out\n\tIs the server running on host \"10.2.0.4\" and accepting TCP/IP connections on port 5432?")],
  // MySQL / MariaDB
  ["permission_denied", "mysql client: ERROR 1045 (28000)", shell("mysql", "ERROR 1045 (28000): Access denied for user 'deploy'@'10.0.3.7' (using password: YES)")],
  ["permission_denied", "go-sql-driver: Error 1142", framework("db_exec", "Error 1142 (42000): DROP command denied to user 'ro'@'%' for table 'sessions'")],
  ["permission_denied", "PyMySQL OperationalError (1045, …)", framework("sql_query", "pymysql.err.OperationalError: (1045, \"Access denied for user 'etl'@'localhost' (using password: YES)\")")],
  ["syntax_error", "mysqldump: Error 1064", shell("mysql", "ERROR 1064 (42000) at line 12: You have an error in your SQL syntax near 'WHERE' at line 1")],
  ["syntax_error", "JDBC: MySQL error code 1064", shell("java", "java.sql.SQLSyntaxErrorException: You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version\n  Error Code: 1064")],
  ["invalid_arguments", "mysql client: ERROR 1146 (42S02)", shell("mysql", "ERROR 1146 (42S02): Table 'shop.ordres' doesn't exist")],
  ["invalid_arguments", "MariaDB: unknown column 1054", framework("db_exec", "Error 1054 (42S22): Unknown column 'create_at' in 'field list'")],
  ["network_error", "mysql client: ERROR 2003 (HY000)", shell("mysql", "ERROR 2003 (HY000): Can't connect to MySQL server on 'db.internal:3306' (111)")],
  ["network_error", "mysqladmin: ERROR 2002 local socket", shell("mysqladmin", "mysqladmin: connect to server at 'localhost' failed\nerror: 'Can't connect to local MySQL server through socket '/run/mysqld/mysqld.sock' (2)'\nERROR 2002 (HY000)")],
  ["network_error", "PyMySQL OperationalError (2013, …)", framework("sql_query", "pymysql.err.OperationalError: (2013, 'Lost connection to MySQL server during query')")],
  ["rate_limited", "mysql client: ERROR 1040 too many connections", shell("mysql", "ERROR 1040 (HY000): Too many connections")],
  ["timeout", "go-sql-driver: Error 1205 lock wait", framework("db_exec", "Error 1205 (HY000): Lock wait timeout exceeded; try restarting transaction")],
  ["timeout", "MySQL max_execution_time 3024", framework("db_exec", "Error 3024 (HY000): Query execution was interrupted, maximum statement execution time exceeded")],
  ["output_too_large", "mysql client: ERROR 1153 packet too large", shell("mysql", "ERROR 1153 (08S01) at line 88: Got a packet bigger than 'max_allowed_packet' bytes")],
  // SQLite
  ["permission_denied", "rusqlite: SQLITE_READONLY", shell("cargo", "Error: SqliteFailure(Error { code: ReadOnly, extended_code: 8 }, Some(\"attempt to write a readonly database\"))\nSQLITE_READONLY", 101)],
  ["permission_denied", "node sqlite3: SQLITE_PERM", framework("db_exec", "Error: SQLITE_PERM: access permission denied")],
  ["output_too_large", "better-sqlite3: SQLITE_TOOBIG", framework("db_exec", "SqliteError: string or blob too big\n  code: 'SQLITE_TOOBIG'")],
  ["invalid_arguments", "node sqlite3: SQLITE_CONSTRAINT_UNIQUE", framework("db_exec", "Error: SQLITE_CONSTRAINT: UNIQUE constraint failed: users.email\n  errno: 19, code: 'SQLITE_CONSTRAINT'")],
  ["timeout", "node sqlite3: SQLITE_BUSY", framework("db_exec", "Error: SQLITE_BUSY: database is locked")],
  // MongoDB
  ["permission_denied", "mongosh: Unauthorized (13)", shell("mongosh", "MongoServerError: not authorized on reports to execute command { find: \"daily\" }\n  code: 13, codeName: 'Unauthorized'")],
  ["permission_denied", "pymongo: AuthenticationFailed (18)", framework("mongo_query", "pymongo.errors.OperationFailure: Authentication failed., full error: {'ok': 0.0, 'errmsg': 'Authentication failed.', 'code': 18, 'codeName': 'AuthenticationFailed'}")],
  ["invalid_arguments", "Mongo driver: E11000 duplicate key", framework("mongo_insert", "MongoBulkWriteError: E11000 duplicate key error collection: app.users index: email_1 dup key: { email: \"a@b.c\" }")],
  ["timeout", "mongo: MaxTimeMSExpired (50)", framework("mongo_query", "MongoServerError: operation exceeded time limit\n  codeName: 'MaxTimeMSExpired', code: 50")],
  // gRPC
  ["network_error", "Go: rpc error code = Unavailable", shell("etcdctl", "Error: rpc error: code = Unavailable desc = connection error: desc = \"transport: Error while dialing\"")],
  ["timeout", "Go: rpc error code = DeadlineExceeded", shell("grpcurl", "ERROR:\n  Code: DeadlineExceeded\n  Message: context deadline exceeded\nrpc error: code = DeadlineExceeded desc = context deadline exceeded")],
  ["permission_denied", "Go: rpc error code = PermissionDenied", shell("tctl", "Error: rpc error: code = PermissionDenied desc = Request unauthorized.")],
  ["permission_denied", "Python: StatusCode.UNAUTHENTICATED", framework("grpc_call", "grpc._channel._InactiveRpcError: <_InactiveRpcError of RPC that terminated with:\n\tstatus = StatusCode.UNAUTHENTICATED\n\tdetails = \"Request had invalid authentication credentials.\"\n>")],
  ["network_error", "Node: 14 UNAVAILABLE", framework("grpc_call", "Error: 14 UNAVAILABLE: No connection established. Last error: null")],
  ["timeout", "Node: 4 DEADLINE_EXCEEDED", framework("grpc_call", "Error: 4 DEADLINE_EXCEEDED: Deadline exceeded after 5.001s")],
  ["invalid_arguments", "Java: StatusRuntimeException INVALID_ARGUMENT", shell("java", "io.grpc.StatusRuntimeException: INVALID_ARGUMENT: page_size must be between 1 and 1000")],
  ["rate_limited", "Python: StatusCode.RESOURCE_EXHAUSTED quota", framework("grpc_call", "grpc.RpcError: status = StatusCode.RESOURCE_EXHAUSTED details = \"Quota exceeded for quota metric 'Read requests' per minute\"")],
  // curl
  ["network_error", "curl: (6) through a script", shell("bash", "install.sh: downloading...\ncurl: (6) Could not resolve host: get.example.dev")],
  ["network_error", "curl: (7) through a Dockerfile step", shell("docker", "#7 0.412 curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server")],
  ["timeout", "curl: (28) through a healthcheck", shell("make", "healthcheck: curl: (28) Operation timed out after 10001 milliseconds with 0 bytes received\nmake: *** [Makefile:12: wait] Error 28", 2)],
  ["network_error", "curl: (60) certificate", shell("bash", "curl: (60) SSL certificate problem: unable to get local issuer certificate")],
  ["network_error", "git over HTTP: RPC failed; curl 56", shell("git", "error: RPC failed; curl 56 OpenSSL SSL_read: Connection reset by peer, errno 104\nfatal: early EOF", 128)],
  ["network_error", "curl: (35) TLS handshake", shell("brew", "curl: (35) error:0A000126:SSL routines::unexpected eof while reading\nError: Failed to download resource")],
  ["output_too_large", "curl: (63) max filesize", shell("bash", "curl: (63) Exceeded the maximum allowed file size (1048576) with 2097152 bytes")],
  // Win32 / HRESULT / Winsock
  ["permission_denied", "HRESULT 0x80070005", shell("powershell", "New-Item : Access to the path 'C:\\Program Files\\app\\cfg' is denied. HRESULT: 0x80070005 (E_ACCESSDENIED)")],
  ["permission_denied", "Win32 ERROR_ACCESS_DENIED", framework("win_service", "OpenService failed: ERROR_ACCESS_DENIED")],
  ["network_error", "Winsock 10061", framework("http_get", "System.Net.Sockets.SocketException (10061): No connection could be made because the target machine actively refused it. [::1]:5001")],
  ["timeout", "Winsock WSAETIMEDOUT", framework("smtp_send", "send failed: WSAETIMEDOUT (10060)")],
  ["permission_denied", "Win32 ERROR_ELEVATION_REQUIRED", shell("installer", "CreateProcess failed: ERROR_ELEVATION_REQUIRED (740)")],
  // errno numbers
  ["network_error", "requests: [Errno 111]", framework("http_get", "requests.exceptions.ConnectionError: HTTPConnectionPool(host='localhost', port=8000): Max retries exceeded with url: /v1 (Caused by NewConnectionError(': Failed to establish a new connection: [Errno 111] Connection refused'))")],
  ["network_error", "socket.gaierror [Errno -3]", framework("http_get", "OSError: [Errno -3] Temporary failure in name resolution")],
  ["timeout", "OSError [Errno 110]", framework("ftp_get", "OSError: [Errno 110] Connection timed out")],
  // standard-library exception classes
  ["network_error", "Java: java.net.ConnectException", shell("java", "Exception in thread \"main\" java.net.ConnectException: Connection refused\n\tat java.base/sun.nio.ch.Net.connect0(Native Method)")],
  ["network_error", "Java: UnknownHostException", shell("gradle", "Caused by: java.net.UnknownHostException: repo.maven.apache.org")],
  ["timeout", "Java: SocketTimeoutException", shell("java", "java.net.SocketTimeoutException: Read timed out\n\tat java.base/java.net.SocketInputStream.socketRead0(Native Method)")],
  ["network_error", "Java: SSLHandshakeException", shell("mvn", "Caused by: javax.net.ssl.SSLHandshakeException: PKIX path building failed")],
  ["permission_denied", "Java NIO: AccessDeniedException", shell("java", "Exception in thread \"main\" java.nio.file.AccessDeniedException: /var/lib/app/state.db")],
  ["environment_missing", "Java: ClassNotFoundException for a driver", shell("java", "Exception in thread \"main\" java.lang.ClassNotFoundException: org.postgresql.Driver")],
  ["permission_denied", ".NET: UnauthorizedAccessException", shell("dotnet", "Unhandled exception. System.UnauthorizedAccessException: Access to the path '/etc/app/keys' is denied.")],
  ["environment_missing", ".NET: DllNotFoundException", shell("dotnet", "Unhandled exception. System.DllNotFoundException: Unable to load shared library 'libgdiplus' or one of its dependencies.")],
  ["syntax_error", "Jackson: JsonParseException", shell("java", "com.fasterxml.jackson.core.JsonParseException: Unexpected character ('}' (code 125)): was expecting double-quote to start field name")],
  ["network_error", "Python: ssl.SSLCertVerificationError", framework("http_get", "ssl.SSLCertVerificationError: [SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate")],
  ["invalid_arguments", "Python: IsADirectoryError", framework("read_file", "IsADirectoryError: [Errno 21] Is a directory: 'data/'")],
  // guards: a code several types print, where the message's own statement decides
  ["output_too_large", "guard: RESOURCE_EXHAUSTED for a message over the size limit", shell("client", "rpc error: code = ResourceExhausted desc = grpc: received message larger than max (9000000 vs. 4194304)")],
  ["permission_denied", "guard: PDO 08006 for a rejected password", framework("php_exec", "SQLSTATE[08006] [7] FATAL:  password authentication failed for user \"shop\"")],
  ["invalid_arguments", "guard: curl (22) with a 404", shell("bash", "curl: (22) The requested URL returned error: 404")],
  ["rate_limited", "guard: curl (22) with a 429", shell("bash", "curl: (22) The requested URL returned error: 429")],
  ["invalid_arguments", "guard: a table named like a SQLSTATE", shell("psql", 'ERROR:  relation "tmp_42601" does not exist (SQLSTATE 42P01)', 1)],
  ["permission_denied", "guard: SQLITE_CANTOPEN for a directory without write permission", framework("db_open", "SQLITE_CANTOPEN: unable to open database file: permission denied on /srv/data")],
  ["permission_denied", "guard: Java FileNotFoundException that is a permission", shell("java", "java.io.FileNotFoundException: /var/log/app.log (Permission denied)")],
  ["network_error", "guard: Node gRPC number not that name's is not read", framework("grpc_call", "Error: 14 UNAVAILABLE: failed to connect to all addresses; last error: UNKNOWN: ipv4:10.0.0.9:50051: Failed to connect to remote host: Connection refused")],
]);

/**
 * "not a valid …" / "malformed …" whose noun is another type's (2026-11-28, issue 18): written before the rule
 * `invalid_adjective_only` (classify.ts) from the first-sight analysis of batches 2, 4 and 9 (npm run diagnosis:first-sight),
 * in other products' words; 10/13 before the rule (the three misses answered invalid_arguments at 0.77–0.97), 13/13 after.
 * The guards: a noun that is an argument's keeps invalid_arguments.
 */
const adjectiveOnly = group([
  ["syntax_error", "jq: not a valid filter", shell("jq", "jq: error: 'select(' is not a valid filter: syntax error, unexpected end of file", 3)],
  ["syntax_error", "a template engine: malformed tag", shell("hugo", "Error: template: index.html:14: malformed {{ if }} block: unexpected EOF")],
  ["syntax_error", "SQL: not a valid expression", shell("sqlcmd", "Msg 102, Level 15, State 1: The text near 'SELEC' is not a valid expression; unexpected token")],
  ["tool_not_found", "an agent: the chosen action is not a valid choice, no tool of that name", framework("agent", "Parsing LLM output produced an action 'browse_web', which is not a valid choice: no tool of that name is registered")],
  ["output_too_large", "a malformed request over its size limit", framework("invoke_model", "Malformed request: input text exceeds the maximum size of 50000 characters")],
  ["permission_denied", "not a valid session, access denied", framework("crm_update", "Error 403: not a valid session for this operation; access denied for role viewer")],
  ["network_error", "a malformed response from a proxy, connection reset", shell("pip", "ERROR: Could not install packages: ProxyError: Cannot connect to proxy. malformed response from proxy, connection reset by peer")],
  ["syntax_error", "a model's malformed tool arguments JSON", framework("agent", "Tool arguments are malformed: Unexpected end of JSON input at position 88")],
  ["invalid_arguments", "guard: not a valid port number", shell("nc", "nc: port number '70000' is not a valid port number")],
  ["invalid_arguments", "guard: a malformed URL given", shell("wget", "wget: malformed URL 'htp:/example.com'")],
  ["invalid_arguments", "guard: not a valid value for an option", shell("tool", "error: 'fast' is not a valid value for --mode; expected one of: quick, full")],
  ["invalid_arguments", "guard: git's malformed object name", shell("git", "fatal: malformed object name 'HEAD~~x'", 128)],
  ["invalid_arguments", "guard: not a valid date", shell("date", "date: 'yesterdayy' is not a valid date")],
]);

/**
 * The families written from batch 10's tuning half (2026-11-28, issue 18), in other products' words: written before the rules,
 * 22/31 then (rules alone 7/31), 31/31 after (rules alone 31/31); the last two after the rule for a task file that did not parse.
 */
const batch10 = group([
  // a runner's task named in quotes, not found or never defined
  ["tool_not_found", "jake: Task \"x\" not found", shell("jake", "jake aborted.\nError: Task \"deploy:prod\" not found")],
  ["tool_not_found", "a task runner: task 'x' is not found", shell("task", "task: Task 'lint-all' is not found in Taskfile.yml")],
  ["tool_not_found", "a recipe `x` not found", shell("just", "error: recipe `bulid` not found")],
  ["tool_not_found", "a task never defined", shell("gulp", "[10:02:11] Task never defined: styles\n[10:02:11] To list available tasks, try running: gulp --tasks")],
  ["tool_not_found", "a target never defined", shell("mage", "Error: target 'release' is not defined")],
  ["invalid_arguments", "guard: a Kubernetes job named in quotes not found", shell("kubectl", 'Error from server (NotFound): jobs.batch "nightly" not found')],
  ["invalid_arguments", "guard: a file named in quotes not found", shell("python", 'Error: file "data.csv" not found')],
  ["syntax_error", "a task missing because the task file did not parse", shell("gulp", "/srv/app/gulpfile.js:12\n  .pipe(sass()\n  ^\nSyntaxError: missing ) after argument list\n[09:14:02] Task never defined: styles")],
  ["syntax_error", "a recipe missing after a parse error in its file", shell("invoke", "ParseError: tasks.py line 8: invalid syntax\nNo idea what 'deploy' is!\nerror: recipe `deploy` not found")],
  // a parser's unexpected bare word where its usage takes a subcommand
  ["tool_not_found", "clap 2: a bare word where a <SUBCOMMAND> goes", shell("mycli", "error: Found argument 'deploy' which wasn't expected, or isn't valid in this context\n\nUSAGE:\n    mycli [FLAGS] [OPTIONS] <SUBCOMMAND>\n\nFor more information try --help")],
  ["tool_not_found", "clap 4: unexpected argument where a <COMMAND> goes", shell("tool", "error: unexpected argument 'publish' found\n\nUsage: tool [OPTIONS] <COMMAND>\n\nFor more information, try '--help'.", 2)],
  ["invalid_arguments", "guard: a flag unexpected where a subcommand goes", shell("mycli", "error: Found argument '--fast' which wasn't expected, or isn't valid in this context\n\nUSAGE:\n    mycli [FLAGS] [OPTIONS] <SUBCOMMAND>")],
  ["invalid_arguments", "guard: a bare word unexpected after the subcommand", shell("mycli", "error: Found argument 'extra' which wasn't expected, or isn't valid in this context\n\nUSAGE:\n    mycli build [OPTIONS] <PATH>")],
  // a CA bundle configured that points nowhere
  ["environment_missing", "a CA bundle path that does not exist", shell("pip", "ERROR: Could not install packages due to an OSError: Could not find a suitable TLS CA certificate bundle, invalid path: /etc/ssl/corp-ca.pem")],
  ["environment_missing", "a CA file setting that points nowhere", shell("node", "Error: ENOENT: the CA bundle configured in NODE_EXTRA_CA_CERTS was not found: /opt/certs/root.crt")],
  ["network_error", "guard: a certificate the server sent is not trusted", shell("curl", "curl: (60) SSL certificate problem: unable to get local issuer certificate", 60)],
  // a runtime the library needs is not available
  ["environment_missing", "could not find a JavaScript runtime", shell("bundle", "ExecJS::RuntimeUnavailable: Could not find a JavaScript runtime.")],
  ["environment_missing", "no runtime available", framework("render", "RuntimeError: no JavaScript runtime is available on this host; install Node.js")],
  // no display for a graphical program
  ["environment_missing", "Java HeadlessException", shell("java", "Exception in thread \"main\" java.awt.HeadlessException: No X11 DISPLAY variable was set")],
  ["environment_missing", "Qt cannot connect to display", shell("python3", "qt.qpa.xcb: could not connect to display \nThis application failed to start because no Qt platform plugin could be initialized.")],
  ["environment_missing", "Tk: no display name and no $DISPLAY", shell("python3", "_tkinter.TclError: no display name and no $DISPLAY environment variable")],
  ["environment_missing", "Xlib cannot open display", shell("xdotool", "Error: Can't open display: (null)\nFailed creating new xdo instance")],
  // a refusal code with approval required
  ["permission_denied", "a run denied until approved", framework("exec", "EXEC_DENIED: approval required")],
  ["permission_denied", "approval required before it runs", framework("deploy", "Error: approval required: the deploy step is waiting on a reviewer and was not run")],
  // a value shorter than its minimum length; longer than its maximum
  ["invalid_arguments", "AWS: length greater than or equal to 1", framework("bedrock", "ValidationException: Value '' at 'name' failed to satisfy constraint: Member must have length greater than or equal to 1")],
  ["output_too_large", "guard: length less than or equal to N is a size limit", framework("bedrock", "ValidationException: Value at 'inputText' failed to satisfy constraint: Member must have length less than or equal to 50000")],
  // a request header or cookie too large
  ["output_too_large", "a proxy: Request Header Or Cookie Too Large", framework("http", "400 Bad Request: <html><head><title>400 Request Header Or Cookie Too Large</title></head></html>")],
  ["output_too_large", "431 Request Header Fields Too Large", framework("http_get", "HTTP 431 Request Header Fields Too Large")],
  ["output_too_large", "a cookie too large", framework("fetch", "Bad Request: cookie too large (max 8192 bytes)")],
  // set the key or pass it
  ["environment_missing", "either set X_API_KEY or pass --key", shell("ai", "error: either set ANTHROPIC_API_KEY or pass --api-key")],
  ["environment_missing", "please set X_TOKEN", shell("gh-bot", "Error: please set GITHUB_TOKEN before running")],
  // a required parameter without a value
  ["invalid_arguments", "a tool used without a value for a required parameter", framework("agent", "The assistant called read_file without a value for required parameter 'path'.")],
  ["invalid_arguments", "missing value for the required argument", shell("cli", "error: missing value for required argument 'name'")],
  // round 2, written after the rules as a check: 13/15 with the rules as first written (rules alone 11/15; missed: nx's
  // configuration for a task, git's CA file locations), 15/15 after widening both
  ["tool_not_found", "doit: task 'x' not found", shell("doit", "ERROR: Task 'publish' not found")],
  ["tool_not_found", "phing: target not defined in the project", shell("phing", "BUILD FAILED\nTarget \"dist\" is not defined in the project")],
  ["tool_not_found", "nx: cannot find the configuration for a task", shell("nx", "NX   Cannot find configuration for task myapp:e2e")],
  ["tool_not_found", "clap 4: unrecognized subcommand with Usage <COMMAND>", shell("uv", "error: unrecognized subcommand 'instal'\n\nUsage: uv [OPTIONS] <COMMAND>", 2)],
  ["tool_not_found", "clap 3: found argument where USAGE takes <SUBCOMMAND>", shell("btm", "error: Found argument 'stats' which wasn't expected, or isn't valid in this context\n\nUSAGE:\n    btm [OPTIONS] <SUBCOMMAND>")],
  ["environment_missing", "git: error setting certificate verify locations", shell("git", "fatal: unable to access 'https://git.corp/x.git/': error setting certificate verify locations:  CAfile: /etc/pki/corp.pem CApath: none", 128)],
  ["environment_missing", "requests: a CA bundle path that points nowhere", framework("http_get", "OSError: Could not find a suitable TLS CA certificate bundle, invalid path: /home/u/.certs/ca.pem")],
  ["environment_missing", "Rails: no JavaScript runtime", shell("rails", "ExecJS::RuntimeUnavailable: Could not find a JavaScript runtime. See the list of available runtimes.")],
  ["environment_missing", "GTK: cannot open display", shell("zenity", "(zenity:1234): Gtk-WARNING **: cannot open display: :0")],
  ["environment_missing", "Electron: missing X server or $DISPLAY", shell("electron", "[1234:ERROR:ozone_platform_x11.cc(247)] Missing X server or $DISPLAY\nThe platform failed to initialize.  Exiting.")],
  ["environment_missing", "you must set X_SECRET_KEY", shell("deployer", "fatal: you must set STRIPE_SECRET_KEY to deploy payments")],
  ["permission_denied", "manual approval is required", framework("terraform_apply", "Run is waiting: manual approval is required before apply; the run was not applied")],
  ["invalid_arguments", "Azure: length must be greater than or equal to", framework("az_create", "The value of parameter name is invalid: its length must be greater than or equal to 3")],
  ["output_too_large", "a proxy: request headers too large", framework("http", "upstream rejected: request headers too large (max 60 KiB)")],
  ["invalid_arguments", "no value provided for a required parameter", framework("agent", "Tool call rejected: no value provided for required parameter 'query'")],
]);

/**
 * A program of any name that the wording says is a program (command, executable, binary, CLI, compiler, linker) is not installed
 * (2026-11-28, issue 18): knowledge, not a corpus fit — the well-known-programs list generalised. Written before the rule; a
 * module, package, library, plugin or browser named so stays environment_missing (the labelling decisions).
 */
const programNotInstalled = group([
  ["command_not_found", "the 'x' command is not installed", shell("render", "Error: the 'wkhtmltopdf' command is not installed")],
  ["command_not_found", "x executable is not installed", shell("lint", "shellcheck executable is not installed; skipping shell scripts")],
  ["command_not_found", "program 'x' is not installed", framework("convert_doc", "OSError: program 'soffice' is not installed")],
  ["command_not_found", "the X CLI is not installed", shell("deploy", "The Azure CLI is not installed. Install it from the Microsoft documentation.")],
  ["command_not_found", "x binary not installed", shell("backup", "fatal: restic binary not installed")],
  ["command_not_found", "x command-line tool is not installed", framework("transcode", "HandBrakeCLI command-line tool is not installed on this host")],
  ["command_not_found", "the x compiler is not installed", shell("make", "make: *** the protoc compiler is not installed.  Stop.", 2)],
  ["command_not_found", "required command x is not installed", shell("setup.sh", "setup.sh: required command \"yq\" is not installed")],
  ["environment_missing", "module 'x' is not installed", framework("resize_image", "Error: module 'sharp' is not installed")],
  ["environment_missing", "package 'x' is not installed", shell("Rscript", "Error: package 'ggplot2' is not installed")],
  ["environment_missing", "the x library is not installed", framework("parse_yaml", "the yaml library is not installed; install it with your package manager")],
  ["environment_missing", "the x plugin is not installed", shell("vagrant", "The vagrant-vbguest plugin is not installed.")],
  ["environment_missing", "a browser executable not installed", framework("browser_navigate", "Error: the chromium executable is not installed. Run the browser install step first.")],
]);

/** Every group, by name: the unit cases of phrase-families.test.ts, in the order they were written. */
export const HAND_WORDINGS = { realWorld, batch7, batch8, probingRules, batch9, probeRound1, probeRound2, probeRound3, probeRound4, probeRound5, probeRound6, standardCodes, adjectiveOnly, batch10, programNotInstalled } as const;

/**
 * The collection batches of the world corpus whose tuning-half misses each group was written from: a leave-one-batch-out fold
 * that tests batch k trains on no group written from k (scripts/diagnosis-lexical.ts, scripts/diagnosis-lobo.ts). The probing
 * rounds were written from no corpus case.
 */
export const WRITTEN_FROM: Record<keyof typeof HAND_WORDINGS, readonly number[]> = {
  realWorld: [1, 2, 3, 4, 5, 6],
  batch7: [7],
  batch8: [8],
  probingRules: [],
  batch9: [9],
  probeRound1: [],
  probeRound2: [],
  probeRound3: [],
  probeRound4: [],
  probeRound5: [],
  probeRound6: [],
  standardCodes: [],
  adjectiveOnly: [2, 4, 9],
  batch10: [10],
  programNotInstalled: [],
};

/** Every hand-written wording as a training case, with the batches its group was written from. */
export function allHandWordings(): Array<HandWording & { group: keyof typeof HAND_WORDINGS; writtenFrom: readonly number[] }> {
  return (Object.keys(HAND_WORDINGS) as Array<keyof typeof HAND_WORDINGS>).flatMap((group) => HAND_WORDINGS[group].map((w) => ({ ...w, group, writtenFrom: WRITTEN_FROM[group] })));
}
