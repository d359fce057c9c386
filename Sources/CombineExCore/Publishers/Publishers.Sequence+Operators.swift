// The operators Combine specializes on `Publishers.Sequence`: they are applied to the sequence
// itself, at once, and return another simple publisher (`Publishers.Sequence`, `Just`,
// `Optional.Publisher`, `Result.Publisher` or `Empty`) instead of wrapping the sequence in an
// operator. Closures therefore run when the operator is applied, once for all subscribers,
// not per subscription. Operators that pick one element (`min`, `first`, `last(where:)`, ...)
// are specialized only when the failure type is `Never`, as in Combine.

extension Publishers.Sequence where Failure == Never {
  /// Publishes the minimum element according to `areInIncreasingOrder`, if any.
  @inlinable
  public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
  }

  /// Publishes the maximum element according to `areInIncreasingOrder`, if any.
  @inlinable
  public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
  }

  /// Publishes the first element that satisfies `predicate`, if any.
  @inlinable
  public func first(where predicate: (Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
  }
}

extension Publishers.Sequence {
  /// Publishes whether every element satisfies `predicate`.
  @inlinable
  public func allSatisfy(_ predicate: (Elements.Element) -> Bool)
    -> Result<Bool, Failure>.Publisher
  {
    Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
  }

  /// Publishes whether every element satisfies `predicate`, or fails with the error it throws.
  @inlinable
  public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
  }

  /// Publishes all the elements in one array.
  @inlinable
  public func collect() -> Result<[Elements.Element], Failure>.Publisher {
    Result<[Elements.Element], Failure>.Publisher(Array(sequence))
  }

  /// Publishes the non-`nil` results of `transform`.
  @inlinable
  public func compactMap<T>(_ transform: (Elements.Element) -> T?)
    -> Publishers.Sequence<[T], Failure>
  {
    Publishers.Sequence<[T], Failure>(sequence: eagerlyCompactMapped(transform))
  }

  /// Publishes whether an element satisfies `predicate`.
  @inlinable
  public func contains(where predicate: (Elements.Element) -> Bool)
    -> Result<Bool, Failure>.Publisher
  {
    Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
  }

  /// Publishes whether an element satisfies `predicate`, or fails with the error it throws.
  @inlinable
  public func tryContains(where predicate: (Elements.Element) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
  }

  /// Publishes the elements after the leading ones that satisfy `predicate`.
  @inlinable
  public func drop(while predicate: (Elements.Element) -> Bool)
    -> Publishers.Sequence<DropWhileSequence<Elements>, Failure>
  {
    Publishers.Sequence<DropWhileSequence<Elements>, Failure>(
      sequence: sequence.drop(while: predicate))
  }

  /// Publishes the elements after the first `count`.
  @inlinable
  public func dropFirst(_ count: Int = 1)
    -> Publishers.Sequence<DropFirstSequence<Elements>, Failure>
  {
    Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
  }

  /// Publishes the elements that satisfy `isIncluded`.
  @inlinable
  public func filter(_ isIncluded: (Elements.Element) -> Bool)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: eagerlyFiltered(isIncluded))
  }

  /// Finishes without publishing any element.
  @inlinable
  public func ignoreOutput() -> Empty<Elements.Element, Failure> {
    Empty()
  }

  /// Publishes the transformed elements.
  ///
  /// ```swift
  /// let tens: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.map { $0 * 10 }
  /// print(tens.sequence)  // Prints: [10, 20, 30]
  /// ```
  @inlinable
  public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: eagerlyMapped(transform))
  }

  /// Publishes at most the first `maxLength` elements.
  @inlinable
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
  }

  /// Publishes the leading elements that satisfy `predicate`.
  @inlinable
  public func prefix(while predicate: (Elements.Element) -> Bool)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
  }

  /// Publishes the elements folded into one value with `nextPartialResult`.
  @inlinable
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
  ) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
  }

  /// Publishes the elements folded into one value with `nextPartialResult`, or fails with the
  /// error it throws.
  @inlinable
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
  }

  /// Publishes the elements with `nil` replaced by `output`.
  @inlinable
  public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
  where Elements.Element == T? {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
  }

  /// Publishes every partial result of folding the elements with `nextPartialResult`.
  @inlinable
  public func scan<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
  ) -> Publishers.Sequence<[T], Failure> {
    var accumulator = initialResult
    var partialResults: [T] = []
    partialResults.reserveCapacity(sequence.underestimatedCount)
    for element in sequence {
      accumulator = nextPartialResult(accumulator, element)
      partialResults.append(accumulator)
    }
    return Publishers.Sequence<[T], Failure>(sequence: partialResults)
  }

  /// Publishes the same elements, with a failure type that is never used.
  @inlinable
  public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
    Publishers.Sequence<Elements, E>(sequence: sequence)
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Publishes the elements without consecutive repeats.
  @inlinable
  public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
    var unique: [Elements.Element] = []
    for element in sequence where unique.last != element {
      unique.append(element)
    }
    return Publishers.Sequence<[Elements.Element], Failure>(sequence: unique)
  }

  /// Publishes whether an element equals `output`.
  @inlinable
  public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(output))
  }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
  /// Publishes the minimum element, if any.
  @inlinable
  public func min() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.min())
  }

  /// Publishes the maximum element, if any.
  @inlinable
  public func max() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.max())
  }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  /// Publishes the first element, if any.
  @inlinable
  public func first() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.first)
  }

  /// Publishes the element at `index`, if the collection has one there.
  @inlinable
  public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(
      sequence.indices.contains(index) ? sequence[index] : nil)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// Publishes the number of elements.
  @inlinable
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }

  /// Publishes the elements in `range` of the collection's indices, which must be valid
  /// indices of the collection (as in Combine).
  @inlinable
  public func output(in range: Range<Elements.Index>)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    // As in Combine: the collection's own subscript checks the range (a range beyond the
    // indices stops the program), and the collection sees only the calls Combine makes.
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
  }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
  /// Publishes the last element, if any.
  @inlinable
  public func last() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.last)
  }

  /// Publishes the last element that satisfies `predicate`, if any.
  @inlinable
  public func last(where predicate: (Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
  /// Publishes the element at `index`, if the collection has one there.
  @inlinable
  public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(
      sequence.indices.contains(index) ? sequence[index] : nil)
  }

  /// Publishes the number of elements.
  @inlinable
  public func count() -> Just<Int> {
    Just(sequence.count)
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  /// Publishes the elements in `range` of the collection's indices, which must be valid
  /// indices of the collection (as in Combine).
  @inlinable
  public func output(in range: Range<Elements.Index>)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    // As in Combine: the collection's own subscript checks the range (a range beyond the
    // indices stops the program), and the collection sees only the calls Combine makes.
    Publishers.Sequence<[Elements.Element], Failure>(sequence: Array(sequence[range]))
  }

  /// Publishes the number of elements.
  @inlinable
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
  /// Publishes `elements`, then this publisher's elements.
  @inlinable
  public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
    prepend(elements)
  }

  /// Publishes `elements`, then this publisher's elements.
  @inlinable
  public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where S.Element == Elements.Element {
    var joined = Elements()
    joined.reserveCapacity(sequence.count + elements.underestimatedCount)
    joined.append(contentsOf: elements)
    joined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// Publishes `publisher`'s elements, then this publisher's elements.
  @inlinable
  public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>)
    -> Publishers.Sequence<Elements, Failure>
  {
    var joined = publisher.sequence
    joined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// Publishes this publisher's elements, then `elements`.
  @inlinable
  public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
    append(elements)
  }

  /// Publishes this publisher's elements, then `elements`.
  @inlinable
  public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where S.Element == Elements.Element {
    var joined = sequence
    joined.append(contentsOf: elements)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// Publishes this publisher's elements, then `publisher`'s elements.
  @inlinable
  public func append(_ publisher: Publishers.Sequence<Elements, Failure>)
    -> Publishers.Sequence<Elements, Failure>
  {
    append(publisher.sequence)
  }
}

extension Publishers.Sequence {
  // The eager fusions loop explicitly instead of calling `Sequence.map`/`filter`/`compactMap`:
  // the standard library's typed-throws versions are not specialized when inlined here, and
  // their generic code costs a runtime metadata lookup and an allocation per element.
  //
  // They write straight into the new array's storage, sized once from the sequence's
  // `underestimatedCount` (its exact count for a collection): no regrowth, no capacity check
  // per element. Elements beyond that count, if the sequence has more, are appended.

  @inlinable
  func eagerlyMapped<T>(_ transform: (Elements.Element) -> T) -> [T] {
    let expected = sequence.underestimatedCount
    var iterator = sequence.makeIterator()
    var result = [T](unsafeUninitializedCapacity: expected) { storage, initialized in
      while initialized < expected, let element = iterator.next() {
        storage.initializeElement(at: initialized, to: transform(element))
        initialized += 1
      }
    }
    while let element = iterator.next() { result.append(transform(element)) }
    return result
  }

  @inlinable
  func eagerlyFiltered(_ isIncluded: (Elements.Element) -> Bool) -> [Elements.Element] {
    eagerlyCollected { isIncluded($0) ? $0 : nil }
  }

  @inlinable
  func eagerlyCompactMapped<T>(_ transform: (Elements.Element) -> T?) -> [T] {
    eagerlyCollected(transform)
  }

  /// The non-`nil` results of `keep`, in an array reserved for every element (the most there
  /// can be), then shrunk to fit if fewer than half were kept: at most the memory and the
  /// copies of an array grown by doubling, without its regrowth when most are kept.
  @inlinable
  func eagerlyCollected<T>(_ keep: (Elements.Element) -> T?) -> [T] {
    let expected = sequence.underestimatedCount
    var iterator = sequence.makeIterator()
    var result = [T](unsafeUninitializedCapacity: expected) { storage, initialized in
      var scanned = 0
      while scanned < expected, let element = iterator.next() {
        scanned += 1
        if let kept = keep(element) {
          storage.initializeElement(at: initialized, to: kept)
          initialized += 1
        }
      }
    }
    while let element = iterator.next() {
      if let kept = keep(element) { result.append(kept) }
    }
    if result.count < expected / 2 {
      var fitted: [T] = []
      fitted.reserveCapacity(result.count)
      fitted.append(contentsOf: result)
      return fitted
    }
    return result
  }
}
