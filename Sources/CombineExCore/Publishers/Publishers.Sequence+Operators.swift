// The operators Combine specializes on `Publishers.Sequence`: they are applied to the sequence
// itself, at once, and return another simple publisher (`Publishers.Sequence`, `Just`,
// `Optional.Publisher`, `Result.Publisher` or `Empty`) instead of wrapping the sequence in an
// operator. Closures therefore run when the operator is applied, once for all subscribers,
// not per subscription. Operators that pick one element (`min`, `first`, `last(where:)`, ...)
// are specialized only when the failure type is `Never`, as in Combine.

extension Publishers.Sequence where Failure == Never {
  /// Publishes the minimum element according to `areInIncreasingOrder`, if any.
  public func min(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.min(by: areInIncreasingOrder))
  }

  /// Publishes the maximum element according to `areInIncreasingOrder`, if any.
  public func max(by areInIncreasingOrder: (Elements.Element, Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.max(by: areInIncreasingOrder))
  }

  /// Publishes the first element that satisfies `predicate`, if any.
  public func first(where predicate: (Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.first(where: predicate))
  }
}

extension Publishers.Sequence {
  /// Publishes whether every element satisfies `predicate`.
  public func allSatisfy(_ predicate: (Elements.Element) -> Bool)
    -> Result<Bool, Failure>.Publisher
  {
    Result<Bool, Failure>.Publisher(sequence.allSatisfy(predicate))
  }

  /// Publishes whether every element satisfies `predicate`, or fails with the error it throws.
  public func tryAllSatisfy(_ predicate: (Elements.Element) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try sequence.allSatisfy(predicate) })
  }

  /// Publishes all the elements in one array.
  public func collect() -> Result<[Elements.Element], Failure>.Publisher {
    Result<[Elements.Element], Failure>.Publisher(Array(sequence))
  }

  /// Publishes the non-`nil` results of `transform`.
  public func compactMap<T>(_ transform: (Elements.Element) -> T?)
    -> Publishers.Sequence<[T], Failure>
  {
    Publishers.Sequence<[T], Failure>(sequence: sequence.compactMap(transform))
  }

  /// Publishes whether an element satisfies `predicate`.
  public func contains(where predicate: (Elements.Element) -> Bool)
    -> Result<Bool, Failure>.Publisher
  {
    Result<Bool, Failure>.Publisher(sequence.contains(where: predicate))
  }

  /// Publishes whether an element satisfies `predicate`, or fails with the error it throws.
  public func tryContains(where predicate: (Elements.Element) throws -> Bool)
    -> Result<Bool, any Error>.Publisher
  {
    Result<Bool, any Error>.Publisher(Result { try sequence.contains(where: predicate) })
  }

  /// Publishes the elements after the leading ones that satisfy `predicate`.
  public func drop(while predicate: (Elements.Element) -> Bool)
    -> Publishers.Sequence<DropWhileSequence<Elements>, Failure>
  {
    Publishers.Sequence<DropWhileSequence<Elements>, Failure>(
      sequence: sequence.drop(while: predicate))
  }

  /// Publishes the elements after the first `count`.
  public func dropFirst(_ count: Int = 1)
    -> Publishers.Sequence<DropFirstSequence<Elements>, Failure>
  {
    Publishers.Sequence<DropFirstSequence<Elements>, Failure>(sequence: sequence.dropFirst(count))
  }

  /// Publishes the elements that satisfy `isIncluded`.
  public func filter(_ isIncluded: (Elements.Element) -> Bool)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.filter(isIncluded))
  }

  /// Finishes without publishing any element.
  public func ignoreOutput() -> Empty<Elements.Element, Failure> {
    Empty()
  }

  /// Publishes the transformed elements.
  ///
  /// ```swift
  /// let tens: Publishers.Sequence<[Int], Never> = [1, 2, 3].publisher.map { $0 * 10 }
  /// print(tens.sequence)  // Prints: [10, 20, 30]
  /// ```
  public func map<T>(_ transform: (Elements.Element) -> T) -> Publishers.Sequence<[T], Failure> {
    Publishers.Sequence<[T], Failure>(sequence: sequence.map(transform))
  }

  /// Publishes at most the first `maxLength` elements.
  public func prefix(_ maxLength: Int) -> Publishers.Sequence<PrefixSequence<Elements>, Failure> {
    Publishers.Sequence<PrefixSequence<Elements>, Failure>(sequence: sequence.prefix(maxLength))
  }

  /// Publishes the leading elements that satisfy `predicate`.
  public func prefix(while predicate: (Elements.Element) -> Bool)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.prefix(while: predicate))
  }

  /// Publishes the elements folded into one value with `nextPartialResult`.
  public func reduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) -> T
  ) -> Result<T, Failure>.Publisher {
    Result<T, Failure>.Publisher(sequence.reduce(initialResult, nextPartialResult))
  }

  /// Publishes the elements folded into one value with `nextPartialResult`, or fails with the
  /// error it throws.
  public func tryReduce<T>(
    _ initialResult: T, _ nextPartialResult: @escaping (T, Elements.Element) throws -> T
  ) -> Result<T, any Error>.Publisher {
    Result<T, any Error>.Publisher(Result { try sequence.reduce(initialResult, nextPartialResult) })
  }

  /// Publishes the elements with `nil` replaced by `output`.
  public func replaceNil<T>(with output: T) -> Publishers.Sequence<[Elements.Element], Failure>
  where Elements.Element == T? {
    Publishers.Sequence<[Elements.Element], Failure>(sequence: sequence.map { $0 ?? output })
  }

  /// Publishes every partial result of folding the elements with `nextPartialResult`.
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
  public func setFailureType<E: Error>(to error: E.Type) -> Publishers.Sequence<Elements, E> {
    Publishers.Sequence<Elements, E>(sequence: sequence)
  }
}

extension Publishers.Sequence where Elements.Element: Equatable {
  /// Publishes the elements without consecutive repeats.
  public func removeDuplicates() -> Publishers.Sequence<[Elements.Element], Failure> {
    var unique: [Elements.Element] = []
    for element in sequence where unique.last != element {
      unique.append(element)
    }
    return Publishers.Sequence<[Elements.Element], Failure>(sequence: unique)
  }

  /// Publishes whether an element equals `output`.
  public func contains(_ output: Elements.Element) -> Result<Bool, Failure>.Publisher {
    Result<Bool, Failure>.Publisher(sequence.contains(output))
  }
}

extension Publishers.Sequence where Failure == Never, Elements.Element: Comparable {
  /// Publishes the minimum element, if any.
  public func min() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.min())
  }

  /// Publishes the maximum element, if any.
  public func max() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.max())
  }
}

extension Publishers.Sequence where Elements: Collection, Failure == Never {
  /// Publishes the first element, if any.
  public func first() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.first)
  }

  /// Publishes the element at `index`, if the collection has one there.
  public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(
      sequence.indices.contains(index) ? sequence[index] : nil)
  }
}

extension Publishers.Sequence where Elements: Collection {
  /// Publishes the number of elements.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }

  /// Publishes the elements in `range` of the collection's indices.
  public func output(in range: Range<Elements.Index>)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    // Clamped, like the general `output(in:)`: indices past the end publish nothing rather
    // than trap (Combine traps here).
    Publishers.Sequence<[Elements.Element], Failure>(
      sequence: Array(sequence[range.clamped(to: sequence.startIndex..<sequence.endIndex)]))
  }
}

extension Publishers.Sequence where Elements: BidirectionalCollection, Failure == Never {
  /// Publishes the last element, if any.
  public func last() -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(sequence.last)
  }

  /// Publishes the last element that satisfies `predicate`, if any.
  public func last(where predicate: (Elements.Element) -> Bool)
    -> Optional<Elements.Element>.Publisher
  {
    Optional<Elements.Element>.Publisher(sequence.last(where: predicate))
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection, Failure == Never {
  /// Publishes the element at `index`, if the collection has one there.
  public func output(at index: Elements.Index) -> Optional<Elements.Element>.Publisher {
    Optional<Elements.Element>.Publisher(
      sequence.indices.contains(index) ? sequence[index] : nil)
  }

  /// Publishes the number of elements.
  public func count() -> Just<Int> {
    Just(sequence.count)
  }
}

extension Publishers.Sequence where Elements: RandomAccessCollection {
  /// Publishes the elements in `range` of the collection's indices.
  public func output(in range: Range<Elements.Index>)
    -> Publishers.Sequence<[Elements.Element], Failure>
  {
    // Clamped, like the general `output(in:)`: indices past the end publish nothing rather
    // than trap (Combine traps here).
    Publishers.Sequence<[Elements.Element], Failure>(
      sequence: Array(sequence[range.clamped(to: sequence.startIndex..<sequence.endIndex)]))
  }

  /// Publishes the number of elements.
  public func count() -> Result<Int, Failure>.Publisher {
    Result<Int, Failure>.Publisher(sequence.count)
  }
}

extension Publishers.Sequence where Elements: RangeReplaceableCollection {
  /// Publishes `elements`, then this publisher's elements.
  public func prepend(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
    prepend(elements)
  }

  /// Publishes `elements`, then this publisher's elements.
  public func prepend<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where S.Element == Elements.Element {
    var joined = Elements()
    joined.reserveCapacity(sequence.count + elements.underestimatedCount)
    joined.append(contentsOf: elements)
    joined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// Publishes `publisher`'s elements, then this publisher's elements.
  public func prepend(_ publisher: Publishers.Sequence<Elements, Failure>)
    -> Publishers.Sequence<Elements, Failure>
  {
    var joined = publisher.sequence
    joined.append(contentsOf: sequence)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// Publishes this publisher's elements, then `elements`.
  public func append(_ elements: Elements.Element...) -> Publishers.Sequence<Elements, Failure> {
    append(elements)
  }

  /// Publishes this publisher's elements, then `elements`.
  public func append<S: Swift.Sequence>(_ elements: S) -> Publishers.Sequence<Elements, Failure>
  where S.Element == Elements.Element {
    var joined = sequence
    joined.append(contentsOf: elements)
    return Publishers.Sequence<Elements, Failure>(sequence: joined)
  }

  /// Publishes this publisher's elements, then `publisher`'s elements.
  public func append(_ publisher: Publishers.Sequence<Elements, Failure>)
    -> Publishers.Sequence<Elements, Failure>
  {
    append(publisher.sequence)
  }
}
