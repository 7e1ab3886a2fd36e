/** The Faultline mark and name. */
export function Brand() {
  return (
    <div className="brand">
      <span className="brand-mark" aria-hidden="true">
        F
      </span>
      <span className="brand-name">Faultline</span>
    </div>
  );
}
