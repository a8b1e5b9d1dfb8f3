export function App() {
  return (
    <main>
      <h1>commerce-kiosk</h1>
      <p>Kiosk UI: not built yet</p>
    </main>
  );
}
