/// A subscriber or subscription that shows itself as Combine's does in a debugger, a
/// playground or a `dump`: its `description` (the operator's name) as the playground value,
/// and a mirror without children unless the type lists its own (Combine shows no closures).
/// Both are computed when asked for; nothing is stored.
@usableFromInline
protocol NamedReflection: CustomStringConvertible, CustomReflectable,
  CustomPlaygroundDisplayConvertible
{}

extension NamedReflection {
  @usableFromInline
  var customMirror: Mirror { Mirror(self, children: [:]) }

  @usableFromInline
  var playgroundDescription: Any { description }
}
