/** Vocabulary of the generated catalog: categories, title words and tags. */

export interface CategoryDef {
  readonly id: string;
  readonly name: string;
  /** Last word of a title in this category ("Crimson Forest Texture Set"). */
  readonly kinds: readonly string[];
}

export const CATEGORIES: readonly CategoryDef[] = [
  { id: '3d-models', name: '3D Models', kinds: ['Model', 'Mesh Pack', 'Prop Kit', 'Character'] },
  { id: 'textures', name: 'Textures', kinds: ['Texture Set', 'Material', 'Decal Pack', 'Surface'] },
  { id: 'audio', name: 'Audio', kinds: ['Sound Pack', 'Music Loop', 'Ambience', 'Foley Kit'] },
  { id: 'animations', name: 'Animations', kinds: ['Animation Set', 'Motion Pack', 'Rig', 'Cycle'] },
  { id: 'shaders', name: 'Shaders', kinds: ['Shader', 'Post Effect', 'Node Graph', 'Toon Shader'] },
  { id: 'ui-kits', name: 'UI Kits', kinds: ['UI Kit', 'Icon Set', 'HUD', 'Menu Pack'] },
  { id: 'fonts', name: 'Fonts', kinds: ['Font', 'Typeface', 'Glyph Set', 'Pixel Font'] },
  { id: 'vfx', name: 'Visual Effects', kinds: ['VFX Pack', 'Particle Set', 'Explosion Kit', 'Magic Effect'] },
];

export const ADJECTIVES: readonly string[] = [
  'Ancient', 'Arctic', 'Azure', 'Brave', 'Bright', 'Broken', 'Cosmic', 'Crimson',
  'Cyber', 'Dark', 'Desert', 'Dusty', 'Electric', 'Emerald', 'Frozen', 'Gentle',
  'Golden', 'Haunted', 'Hidden', 'Iron', 'Lunar', 'Misty', 'Neon', 'Noble',
  'Quiet', 'Rusty', 'Silent', 'Solar', 'Stone', 'Velvet', 'Wild', 'Wooden',
];

export const NOUNS: readonly string[] = [
  'Castle', 'Forest', 'River', 'Harbor', 'Village', 'Dungeon', 'Galaxy', 'Garden',
  'Temple', 'Canyon', 'Island', 'Meadow', 'Factory', 'Station', 'Kingdom', 'Tavern',
  'Jungle', 'Glacier', 'Volcano', 'Market', 'Library', 'Arena', 'Citadel', 'Lagoon',
  'Outpost', 'Reef', 'Ruins', 'Skyline', 'Swamp', 'Tower', 'Valley', 'Workshop',
];

export const TAGS: readonly string[] = [
  'low-poly', 'pbr', 'stylized', 'realistic', 'pixel-art', 'sci-fi', 'fantasy', 'medieval',
  'modular', 'mobile', 'vr', 'hdrp', 'urp', 'loopable', 'seamless', 'rigged',
  'hand-painted', 'procedural', 'retro', 'horror', 'cartoon', 'nature', 'urban', 'free-update',
];
