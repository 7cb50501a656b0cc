import { useState } from "preact/hooks";
import { RequestFailed } from "../api/client.ts";
import { signIn } from "../api/session-documents.ts";

/**
 * The sign-in screen: a user's login and password, as on the hosted payment page. On success the
 * server sets the HttpOnly session cookie; the page never sees or stores a token.
 */
export function SignIn({ notice, onSignedIn }: { notice: string | undefined; onSignedIn(): void }) {
  const [login, setLogin] = useState("");
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (!login || !password) return setProblem("Enter your login and password.");
    setBusy(true);
    setProblem(undefined);
    try {
      const refused = await signIn(login, password);
      if (refused !== null) {
        setProblem(refused);
        return;
      }
      setPassword("");
      onSignedIn();
    } catch (error) {
      setProblem(error instanceof RequestFailed ? error.message : "Sign-in failed. Try again.");
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in">
      <form class="panel sign-in-form" onSubmit={submit} aria-labelledby="sign-in-title" noValidate>
        <h1 id="sign-in-title">Purse dashboard</h1>
        <p class="muted">Sign in with your Purse user's login and password.</p>
        {notice && !problem ? (
          <p class="notice" role="status">
            {notice}
          </p>
        ) : null}
        <label>
          Login
          <input
            name="login"
            autoComplete="username"
            autoCapitalize="none"
            spellcheck={false}
            maxLength={190}
            value={login}
            onInput={(event) => setLogin(event.currentTarget.value)}
          />
        </label>
        <label>
          Password
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            maxLength={256}
            value={password}
            onInput={(event) => setPassword(event.currentTarget.value)}
          />
        </label>
        {problem ? (
          <p class="form-error" role="alert">
            {problem}
          </p>
        ) : null}
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
