/// The output of a fixed-arity `combineLatest` or `zip` of CombineEx while the combining engine
/// holds it: its tuple, in a box, so that the engine moves one reference instead of the tuple.
///
/// A tuple of five to ten values is forty bytes or more, and the engine moves an output several
/// times between making it and delivering it (its transition's action, the delivery queue);
/// moving a value that large went through the runtime's generic value witnesses, about 450
/// instructions per value received, whether or not it made an output.
///
/// `combineLatest` keeps its latest values in one box and hands it out as every output
/// (``AggregateLatestTuple``): a new value is written in place when no output holds the box any
/// more (the common case: the previous output was delivered and dropped), and into a copy
/// otherwise, so that an output made earlier never changes (copy on write, as arrays do). `zip`
/// makes a box per output.
@usableFromInline
struct AggregateBoxedTuple<Tuple> {
  /// The box the outputs share.
  @usableFromInline
  final class Box {
    // Unchecked: written only under the combining storage's lock, and only while no output
    // holds the box (`update`); the runtime's exclusivity checks cost about 160 instructions
    // per value in `combineLatest` of ten.
    @usableFromInline
    @exclusivity(unchecked)
    var tuple: Tuple

    @inlinable
    init(_ tuple: Tuple) { self.tuple = tuple }
  }

  @usableFromInline
  var box: Box

  @inlinable
  init(_ tuple: Tuple) { box = Box(tuple) }

  /// The values.
  @inlinable
  var tuple: Tuple { box.tuple }

  /// Changes the values with `write`, in a copy if an output still holds them.
  @inlinable
  mutating func update(_ write: (inout Tuple) -> Void) {
    if !isKnownUniquelyReferenced(&box) { box = Box(box.tuple) }
    write(&box.tuple)
  }
}
