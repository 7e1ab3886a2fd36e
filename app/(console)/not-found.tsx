import Link from "next/link";

export default function NotFound() {
  return (
    <div className="empty">
      <h1 className="page-title">Not found</h1>
      <p>This mission or page does not exist. It may have been mistyped.</p>
      <p>
        <Link className="link" href="/missions">
          Back to missions
        </Link>
      </p>
    </div>
  );
}
