import Link from "next/link";

export default function NotFound() {
  return (
    <main className="login-shell" id="main">
      <div className="card login-card">
        <h1 className="page-title">Not found</h1>
        <p>This page does not exist. It may have been mistyped.</p>
        <p>
          <Link className="link" href="/missions">
            Go to missions
          </Link>
        </p>
      </div>
    </main>
  );
}
